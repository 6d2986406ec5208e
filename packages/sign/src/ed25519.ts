// Ed25519 (RFC 8032 §5.1) through @noble/curves' EdDSA code (assembled in ./ed25519-curve.ts,
// which loads only what Ed25519 needs), with strict verification everywhere.
//
// Every verification is strict, as noble's `ed25519.verify` with `{ zip215: false }` decides
// (verifyStrict below spells the steps out over noble's points): RFC 8032 §5.1.7 decoding,
// which rejects S >= L (step 1, the malleability check docs/spec.md §5.6 requires) and
// non-canonical encodings of R and A (y >= p, or x = 0 with the sign bit set); then the
// cofactored equation [8][S]B = [8]R + [8][k]A', which RFC 8032 §5.1.7 allows; and public keys
// of small order are refused — stricter than RFC 8032, which does not require that check, and
// what a signer with a real key never produces. Honest signatures verify
// identically under every RFC 8032 verifier; the differences concern only crafted edge cases
// (see ed25519.test.ts for the speccheck and ZIP-215 cases and what is decided for each).
//
// A public key must also be torsion-free (its point lies in the prime-order subgroup): a key
// A + T with T of small order verifies the cofactored equation for whoever holds A's secret,
// so without the check a revoked key could sign again under another encoding.
//
// Malformed *arguments* (keys of the wrong type or length, a message that is neither a string
// nor bytes) throw a SignError; a malformed *signature* is just an invalid one: false.

import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { expectBytes, messageBytes } from './arguments.js';
import { baseTimes, ed25519, L, Point } from './ed25519-curve.js';
import { parseLowerHex } from './hex.js';

/** An Ed25519 key pair as raw bytes. */
export interface Ed25519KeyPair {
  /** The 32-byte private key, the "seed" of RFC 8032 §5.1.5 (what PKCS#8 stores). */
  readonly privateKey: Uint8Array;
  /** The 32-byte encoded public key A (RFC 8032 §5.1.5). */
  readonly publicKey: Uint8Array;
}

/**
 * Generates an Ed25519 key pair. With `seed` (32 bytes) the pair is derived from it
 * deterministically; without, the seed comes from the platform CSPRNG
 * (`crypto.getRandomValues`). The returned arrays are fresh copies.
 *
 * @throws {SignError} `ARG_INVALID_TYPE` / `KEY_WRONG_LENGTH` for a seed that is not 32 bytes.
 */
export function generateEd25519KeyPair(seed?: Uint8Array): Ed25519KeyPair {
  const privateKey =
    seed === undefined
      ? ed25519.utils.randomSecretKey()
      : new Uint8Array(expectBytes(seed, 32, 'Ed25519 seed'));
  return { privateKey, publicKey: ed25519.getPublicKey(privateKey) };
}

/**
 * The 32-byte public key of a 32-byte Ed25519 private key (seed), RFC 8032 §5.1.5.
 *
 * @throws {SignError} for a private key that is not a 32-byte Uint8Array.
 */
export function publicKeyFromPrivateKey(privateKey: Uint8Array): Uint8Array {
  return ed25519.getPublicKey(expectBytes(privateKey, 32, 'Ed25519 private key'));
}

/**
 * Signs `message` (a string is signed as its UTF-8 bytes) with a 32-byte Ed25519 private key,
 * RFC 8032 §5.1.6. Returns the 64-byte signature R‖S as lowercase hex (128 characters), the
 * form records carry. Deterministic: the same key and message give the same signature, equal
 * to node:crypto's `crypto.sign(null, message, key)`.
 *
 * @throws {SignError} for a private key that is not 32 bytes or a message that is neither a
 *   string nor a Uint8Array.
 */
export function signEd25519(message: string | Uint8Array, privateKey: Uint8Array): string {
  const key = expectBytes(privateKey, 32, 'Ed25519 private key');
  const bytes = messageBytes(message, 'message');
  return bytesToHex(ed25519.sign(bytes, key));
}

/**
 * Verifies an Ed25519 signature, strictly (RFC 8032 §5.1.7, `zip215: false`).
 *
 * Returns false — never throws — for any bad or malformed signature: not a string, not 128
 * lowercase hex characters, S >= L, a non-canonical R, or a failed equation. Also false for a
 * public key that does not decode canonically, has small order or is not torsion-free.
 *
 * @throws {SignError} for a public key that is not a 32-byte Uint8Array or a message that is
 *   neither a string nor a Uint8Array (caller errors, not signature errors).
 */
export function verifyEd25519(
  signatureHex: string,
  message: string | Uint8Array,
  publicKey: Uint8Array,
): boolean {
  const key = expectBytes(publicKey, 32, 'Ed25519 public key');
  const bytes = messageBytes(message, 'message');
  const signature = parseLowerHex(signatureHex, 64);
  if (signature === null) return false;
  try {
    return verifyStrict(signature, bytes, key);
  } catch {
    // Every decoding failure is caught where it happens; anything else thrown concerns the
    // signature's content, which is just "invalid".
    return false;
  }
}

/**
 * RFC 8032 §5.1.7 on a 64-byte signature R‖S, decided exactly as noble's `ed25519.verify`
 * with `zip215: false`, plus the torsion-free key rule (see the top of this file):
 *   1. S < L, and R and A decode canonically (§5.1.3); A is neither of small order nor has a
 *      small-order component;
 *   2. k = SHA-512(R ‖ A ‖ M) as a little-endian integer, mod L;
 *   3. the cofactored equation [8][S]B = [8]R + [8][k]A.
 */
function verifyStrict(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  const rBytes = signature.subarray(0, 32);
  const s = littleEndian(signature.subarray(32, 64));
  if (s >= L) return false;
  const a = usablePublicKey(publicKey);
  if (a === null) return false;
  let r: InstanceType<typeof Point>;
  try {
    r = Point.fromBytes(rBytes, false);
  } catch {
    return false;
  }
  const challenge = new Uint8Array(64 + message.length);
  challenge.set(rBytes, 0);
  challenge.set(publicKey, 32);
  challenge.set(message, 64);
  const k = littleEndian(sha512(challenge)) % L;
  return r.add(a.multiplyUnsafe(k)).subtract(baseTimes(s)).clearCofactor().is0();
}

/** The little-endian integer of some bytes (RFC 8032 §5.1.2 encodes integers so). */
function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

/**
 * Whether 32 bytes are a usable Ed25519 public key: a canonical encoding (RFC 8032 §5.1.3) of a
 * point that is not of small order and lies in the prime-order subgroup (torsion-free), so no
 * other encoding of a mixed-order key stands for the same signer.
 */
export function isTorsionFreePublicKey(publicKey: Uint8Array): boolean {
  return usablePublicKey(publicKey) !== null;
}

// Decoding a key and proving it torsion-free costs a scalar multiplication; a verifier meets
// the same few keys again and again (pinned keys, a signer's inline key), so the decision for
// the most recent keys is kept. A cache of a pure function: it never changes an answer.
const KEY_CACHE_SIZE = 64;
const keyCache = new Map<string, InstanceType<typeof Point> | null>();

/** The decoded point of a usable public key, or null (see isTorsionFreePublicKey). */
function usablePublicKey(publicKey: Uint8Array): InstanceType<typeof Point> | null {
  const id = bytesToHex(publicKey);
  const known = keyCache.get(id);
  if (known !== undefined) return known;
  let point: InstanceType<typeof Point> | null;
  try {
    const decoded = Point.fromBytes(publicKey, false);
    point = !decoded.isSmallOrder() && decoded.isTorsionFree() ? decoded : null;
  } catch {
    point = null;
  }
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.clear();
  keyCache.set(id, point);
  return point;
}
