// Key identifiers. A key id names an Ed25519 public key independently of how it was written
// down: it is the lowercase hex SHA-256 of the key's SubjectPublicKeyInfo DER (RFC 8410 §4,
// 44 bytes), i.e. sha256(302a300506032b6570032100 ‖ A). This is the same digest as
// `sha256(publicKey.export({ type: 'spki', format: 'der' }))` in node:crypto, and as
// `openssl pkey -pubin -outform DER | sha256sum`, so anyone can recompute it.

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeSpki } from './der.js';
import { normalizeKey, type KeyInput } from './keys.js';

/**
 * The key id of an Ed25519 public key (PEM text, raw 32 bytes or SPKI DER): lowercase hex
 * SHA-256 of its 44-byte SPKI DER encoding. Stable across PEM formatting differences.
 *
 * @throws {SignError} for input that is not an Ed25519 public key (see `normalizeKey`).
 */
export function keyId(publicKey: KeyInput): string {
  return bytesToHex(sha256(encodeSpki(normalizeKey(publicKey))));
}
