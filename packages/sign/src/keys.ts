// Ed25519 keys in their interchange forms: raw 32 bytes (RFC 8032), SubjectPublicKeyInfo DER
// (RFC 8410 §4), PKCS#8 DER (RFC 5958, RFC 8410 §7) and PEM (RFC 7468). Interoperates with
// node:crypto: its PEM exports import here and these exports import there.
//
// Keys are identified and compared by their SPKI DER bytes, never by PEM text (docs/spec.md
// §5.6): two PEM texts that differ only in line length or line endings are the same key.

import { equalBytes } from '@noble/curves/utils.js';
import { expectBytes } from './arguments.js';
import { decodePkcs8, decodeSpki, encodePkcs8, encodeSpki } from './der.js';
import { publicKeyFromPrivateKey } from './ed25519.js';
import { isBytes } from '@noble/hashes/utils.js';
import { SignError, describeValue } from './errors.js';
import { decodePem, encodePem } from './pem.js';

/** A public key as the caller may give it: PEM text, raw 32 bytes or 44-byte SPKI DER. */
export type KeyInput = string | Uint8Array;

/**
 * The SubjectPublicKeyInfo DER (44 bytes, RFC 8410 §4) of a raw 32-byte Ed25519 public key:
 * `302a300506032b6570032100` followed by the key.
 *
 * @throws {SignError} for a key that is not a 32-byte Uint8Array.
 */
export function publicKeyToSpki(publicKey: Uint8Array): Uint8Array {
  return encodeSpki(expectBytes(publicKey, 32, 'Ed25519 public key'));
}

/**
 * The raw 32-byte public key from Ed25519 SubjectPublicKeyInfo DER.
 *
 * @throws {SignError} `KEY_DER_MALFORMED` for DER that is not an SPKI structure,
 *   `KEY_NOT_ED25519` for an SPKI of another algorithm.
 */
export function publicKeyFromSpki(der: Uint8Array): Uint8Array {
  if (!isBytes(der)) {
    throw new SignError(
      'ARG_INVALID_TYPE',
      `expected SPKI DER as a Uint8Array, got ${describeValue(der)}`,
    );
  }
  return decodeSpki(der);
}

/**
 * The SPKI PEM (`-----BEGIN PUBLIC KEY-----`) of a raw 32-byte Ed25519 public key, identical
 * to node:crypto's `publicKey.export({ type: 'spki', format: 'pem' })`. This is the form a
 * record's `manifest.signature.pubkey` carries.
 *
 * @throws {SignError} for a key that is not a 32-byte Uint8Array.
 */
export function publicKeyToPem(publicKey: Uint8Array): string {
  return encodePem('PUBLIC KEY', publicKeyToSpki(publicKey));
}

/**
 * The raw 32-byte public key from an SPKI PEM text (`-----BEGIN PUBLIC KEY-----`).
 *
 * @throws {SignError} `KEY_PEM_MALFORMED` for text that is not exactly one well-formed
 *   PUBLIC KEY block, `KEY_DER_MALFORMED` for a block whose DER is not an SPKI structure,
 *   `KEY_NOT_ED25519` for a key of another algorithm.
 */
export function publicKeyFromPem(pem: string): Uint8Array {
  return decodeSpki(decodePem(pem, 'PUBLIC KEY'));
}

/**
 * The PKCS#8 v1 PEM (`-----BEGIN PRIVATE KEY-----`, RFC 5958 version 0) of a 32-byte Ed25519
 * private key (seed), identical to node:crypto's `export({ type: 'pkcs8', format: 'pem' })`.
 *
 * @throws {SignError} for a key that is not a 32-byte Uint8Array.
 */
export function privateKeyToPem(privateKey: Uint8Array): string {
  return encodePem('PRIVATE KEY', encodePkcs8(expectBytes(privateKey, 32, 'Ed25519 private key')));
}

/**
 * The 32-byte Ed25519 private key (seed) from an unencrypted PKCS#8 PEM text
 * (`-----BEGIN PRIVATE KEY-----`). Accepts version 1 and version 2 (RFC 5958) structures; a v2
 * public key, when present, must be the one derived from the seed.
 *
 * @throws {SignError} `KEY_PEM_MALFORMED`, `KEY_DER_MALFORMED`, `KEY_NOT_ED25519`, or
 *   `KEY_MISMATCH` when a v2 structure's public key does not belong to its private key.
 */
export function privateKeyFromPem(pem: string): Uint8Array {
  const { seed, publicKey } = decodePkcs8(decodePem(pem, 'PRIVATE KEY'));
  if (publicKey !== null && !equalBytes(publicKey, publicKeyFromPrivateKey(seed))) {
    throw new SignError(
      'KEY_MISMATCH',
      'expected the PKCS#8 v2 publicKey to be derived from its private key, got a different key',
    );
  }
  return seed;
}

/**
 * Any accepted form of an Ed25519 public key, as raw 32 bytes: SPKI PEM text, raw 32 bytes, or
 * 44-byte SPKI DER. The result is a fresh copy. The key is not checked to be a curve point;
 * such a key simply never verifies anything.
 *
 * @throws {SignError} `KEY_WRONG_LENGTH` for bytes of another length, the PEM/DER codes of
 *   {@link publicKeyFromPem} / {@link publicKeyFromSpki}, `ARG_INVALID_TYPE` for other values.
 */
export function normalizeKey(input: KeyInput): Uint8Array {
  if (typeof input === 'string') return publicKeyFromPem(input);
  if (isBytes(input)) {
    if (input.length === 32) return new Uint8Array(input);
    if (input.length === 44) return decodeSpki(input);
    throw new SignError(
      'KEY_WRONG_LENGTH',
      `expected an Ed25519 public key as 32 raw bytes or 44 bytes of SPKI DER, got ${input.length} bytes`,
    );
  }
  throw new SignError(
    'ARG_INVALID_TYPE',
    `expected an Ed25519 public key as PEM text or a Uint8Array, got ${describeValue(input)}`,
  );
}
