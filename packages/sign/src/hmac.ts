// HMAC-SHA256 (RFC 2104, with SHA-256 from FIPS 180-4; test vectors RFC 4231) via
// @noble/hashes. An HMAC "signature" proves custody of a shared secret, not identity: anyone
// who can verify can also forge (docs/spec.md §5.6).
//
// String keys and messages are their UTF-8 bytes, as node:crypto's
// `createHmac('sha256', key).update(message)` treats strings, so tags made by either agree.

import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { equalBytes } from '@noble/curves/utils.js';
import { bytesToHex, isBytes } from '@noble/hashes/utils.js';
import { messageBytes } from './arguments.js';
import { SignError, describeValue } from './errors.js';
import { parseLowerHex } from './hex.js';

/**
 * HMAC-SHA256 of `message` under `key` (RFC 2104): the 32-byte tag.
 *
 * @throws {SignError} `ARG_INVALID_TYPE` when key or message is neither a string nor a Uint8Array.
 */
export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  return hmac(sha256, messageBytes(key, 'HMAC key'), messageBytes(message, 'message'));
}

/**
 * HMAC-SHA256 of `message` under `key` as lowercase hex (64 characters), equal to node's
 * `createHmac('sha256', key).update(message).digest('hex')`.
 *
 * @throws {SignError} as {@link hmacSha256}.
 */
export function hmacSha256Hex(key: string | Uint8Array, message: string | Uint8Array): string {
  return bytesToHex(hmacSha256(key, message));
}

/**
 * Checks an HMAC-SHA256 tag given as lowercase hex. The comparison is constant-time
 * ({@link constantTimeEqual}), so the time taken does not reveal how much of a forged tag was
 * right. A malformed tag (not a string, not exactly 64 lowercase hex characters) is false.
 *
 * @throws {SignError} as {@link hmacSha256}, for a malformed key or message.
 */
export function verifyHmacSha256(
  key: string | Uint8Array,
  message: string | Uint8Array,
  tagHex: string,
): boolean {
  const expected = hmacSha256(key, message);
  const tag = parseLowerHex(tagHex, 32);
  if (tag === null) return false;
  return constantTimeEqual(expected, tag);
}

/**
 * Compares two byte arrays in time that depends only on their lengths, never on where they
 * first differ (the length is not treated as secret: arrays of different lengths are unequal
 * at once). Use it for MAC tags and other secret-derived values.
 *
 * @throws {SignError} `ARG_INVALID_TYPE` when either argument is not a Uint8Array.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (!isBytes(a) || !isBytes(b)) {
    throw new SignError(
      'ARG_INVALID_TYPE',
      `expected two Uint8Arrays, got ${describeValue(a)} and ${describeValue(b)}`,
    );
  }
  return equalBytes(a, b);
}
