// SHA-256 in browsers and other non-Node runtimes: @noble/hashes, audited and synchronous
// (WebCrypto's digest is async, and verification is a synchronous pipeline).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

const encoder = new TextEncoder();

/** Lowercase hex SHA-256 of a string's UTF-8 encoding, or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return bytesToHex(sha256(typeof data === 'string' ? encoder.encode(data) : data));
}
