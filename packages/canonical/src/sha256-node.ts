// SHA-256 on Node: node:crypto (OpenSSL) is several times faster than a JS implementation,
// and hashing is half of every verification. The browser build uses sha256-browser.ts; both
// hash strings as their UTF-8 encoding (lone surrogates as U+FFFD, as TextEncoder does).
import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of a string's UTF-8 encoding, or of bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
