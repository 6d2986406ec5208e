// Argument checks shared by the signing code, raising coded SignErrors: messages as bytes and
// fixed-length byte arrays.
import { isBytes } from '@noble/hashes/utils.js';
import { SignError, describeValue } from './errors.js';

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
