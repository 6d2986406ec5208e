// Shared pieces of the canonical serializers (docs/spec.md §2): JSON.stringify's value
// preamble, string quoting, member-name sorting and the sentinels the hot paths throw.

import { CanonicalError } from './errors.js';

/**
 * Nested containers handled by recursion before a subtree moves to the explicit-stack
 * serializer, so that arbitrarily deep input never overflows the call stack.
 */
export const RECURSION_LIMIT = 640;

// Sentinels thrown from the hot paths; `locateProblem` replaces them with a located error.
export const NON_FINITE = new CanonicalError('CANONICAL_NON_FINITE_NUMBER', 'non-finite', '');
export const BIGINT = new CanonicalError('CANONICAL_BIGINT', 'bigint', '');
export const CYCLE = new CanonicalError('CANONICAL_CYCLE', 'cycle', '');

/** JSON.stringify's SerializeJSONProperty preamble: toJSON, then unboxing of wrappers. */
export function resolveJson(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      value = value.valueOf();
    }
  }
  return value;
}

/**
 * Whether a member name keeps a plain-object copy from listing members in insertion order:
 * engines enumerate integer-like names first, and a `__proto__` name cannot be held as data.
 */
export function blocksInsertionOrder(key: string): boolean {
  const first = key.charCodeAt(0);
  return (first >= 0x30 && first <= 0x39) || key === '__proto__';
}

/**
 * A string as JSON.stringify writes it. JSON.stringify costs a native call per string, which
 * dominates for the short member names and values of records; a short string with nothing to
 * escape (no `"`, `\`, control character or surrogate) is quoted directly instead.
 */
export function quote(text: string): string {
  const n = text.length;
  if (n > 32) return JSON.stringify(text);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff))
      return JSON.stringify(text);
  }
  return '"' + text + '"';
}

/**
 * Sorts member names by UTF-16 code units, as Array.prototype.sort() does by default (`<` on
 * strings compares code units too). Objects in records are small, and an inline insertion
 * sort beats the generic sort there; it is also linear on names that are already in order.
 */
export function sortKeys(keys: string[]): string[] {
  const n = keys.length;
  if (n > 24) return keys.sort();
  for (let i = 1; i < n; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** A primitive's canonical text; `undefined` means "omitted" (undefined, function, symbol). */
export function serializePrimitive(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (value !== value || value === Infinity || value === -Infinity) throw NON_FINITE;
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw BIGINT;
    default:
      return value === null ? 'null' : undefined;
  }
}
