// Merkle tree hashing of RFC 6962 §2.1 / RFC 9162 §2.1.1 with SHA-256: a leaf hash is
// SHA-256(0x00 || data), an interior node SHA-256(0x01 || left || right), and the hash of the
// empty tree SHA-256 of no bytes. The distinct prefixes keep a leaf from posing as a node
// (second-preimage resistance, RFC 9162 §2.1.1).
import { sha256 } from '@noble/hashes/sha2.js';
import { expectBytes } from './errors.js';

/** Bytes in a SHA-256 hash. */
export const HASH_SIZE = 32;

/** MTH({}): the root of the empty tree, SHA-256 of the empty string (RFC 9162 §2.1.1). */
export const EMPTY_ROOT: Uint8Array = sha256(new Uint8Array(0));

/** The leaf hash of `data`: SHA-256(0x00 || data). */
export function leafHash(data: Uint8Array): Uint8Array {
  const bytes = expectBytes(data, 'leaf data');
  const input = new Uint8Array(bytes.length + 1);
  input[0] = 0x00;
  input.set(bytes, 1);
  return sha256(input);
}

/** The interior node hash of two children: SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha256(input);
}

/** Byte equality (of public values: hashes, keys). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
