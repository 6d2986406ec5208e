// SHA-256 on Node: node:crypto (OpenSSL) is several times faster than a JS implementation,
// and hashing is half of every verification. The browser build uses sha256-browser.ts; both
// hash strings as their UTF-8 encoding (lone surrogates as U+FFFD, as TextEncoder does).
import * as crypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;

// crypto.hash (Node >= 20.12) hashes in one call without creating a Hash object, about twice
// as fast for the short inputs of an event chain; createHash is the fallback.
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/** Lowercase hex SHA-256 of a string's UTF-8 encoding, or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  if (oneShot !== undefined) return oneShot('sha256', data, 'hex');
  return crypto.createHash('sha256').update(data).digest('hex');
}
