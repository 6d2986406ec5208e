// Strict lowercase hex for the signature values of a record (docs/spec.md §5.6).
import { hexToBytes } from '@noble/hashes/utils.js';

const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/**
 * Parses lowercase hex of exactly `byteLength` bytes, or returns null. A record's signature
 * values are lowercase hex; uppercase, odd length, whitespace, a `0x` prefix or the wrong
 * length make the signature malformed, never "close enough". (noble's hexToBytes alone would
 * accept uppercase, hence the check in front of it.)
 */
export function parseLowerHex(text: unknown, byteLength: number): Uint8Array | null {
  if (typeof text !== 'string' || text.length !== byteLength * 2 || !LOWER_HEX.test(text)) {
    return null;
  }
  return hexToBytes(text);
}
