// Byte helpers shared by the signing code: UTF-8 encoding of messages, strict lowercase hex,
// and argument checks that raise coded SignErrors.
import { bytesToHex } from '@noble/hashes/utils.js';
import { SignError, describeValue, isBytes } from './errors.js';

const encoder = new TextEncoder();

/**
 * A message as bytes: strings are UTF-8 encoded (as node:crypto encodes a string passed to
 * `crypto.sign` or `hmac.update`; a lone surrogate becomes U+FFFD in both), bytes are used as is.
 */
export function messageBytes(message: unknown, label: string): Uint8Array {
  if (typeof message === 'string') return encoder.encode(message);
  if (isBytes(message)) return message;
  throw new SignError(
    'ARG_INVALID_TYPE',
    `${label}: expected a string or Uint8Array, got ${describeValue(message)}`,
  );
}

/** Checks that `value` is a Uint8Array of exactly `length` bytes and returns it. */
export function expectBytes(value: unknown, length: number, label: string): Uint8Array {
  if (!isBytes(value)) {
    throw new SignError(
      'ARG_INVALID_TYPE',
      `${label}: expected a ${length}-byte Uint8Array, got ${describeValue(value)}`,
    );
  }
  if (value.length !== length) {
    throw new SignError(
      'KEY_WRONG_LENGTH',
      `${label}: expected ${length} bytes, got ${value.length} bytes`,
    );
  }
  return value;
}

/** Lowercase hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/**
 * Parses lowercase hex of exactly `byteLength` bytes, or returns null. Signatures in a record
 * are lowercase hex by the format (format-decisions "Signature"); uppercase, odd length,
 * whitespace, a `0x` prefix or the wrong length make the signature malformed, never "close
 * enough".
 */
export function parseLowerHex(text: unknown, byteLength: number): Uint8Array | null {
  if (typeof text !== 'string' || text.length !== byteLength * 2 || !LOWER_HEX.test(text)) {
    return null;
  }
  const out = new Uint8Array(byteLength);
  for (let i = 0; i < byteLength; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Byte-wise equality; not constant-time (use only on public data such as public keys). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Concatenates byte arrays into a fresh array. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}
