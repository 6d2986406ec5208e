// The zero-copy fast path: values whose native JSON.stringify text is already canonical
// (docs/spec.md §2 and §7: runback's writers store events in canonical member order).

import { RECURSION_LIMIT } from './json-value.js';

/**
 * Whether native JSON.stringify already writes `value` canonically: plain objects and arrays
 * only, every object's member names in sorted order (none starting with a digit, none named
 * `__proto__` or `toJSON`), finite numbers, no BigInt, shallower than RECURSION_LIMIT. One walk
 * that allocates nothing but key lists and stops at the first thing out of place; it is run
 * once per value, never again on the value's parts, so a refusal costs at most one walk.
 */
export function isInCanonicalOrder(value: object, depth: number): boolean {
  if (depth >= RECURSION_LIMIT) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (!isCanonicalMember(value[i], depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let previous = '';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (i > 0 && !(previous < key)) return false;
    const first = key.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || key === '__proto__' || key === 'toJSON') return false;
    if (!isCanonicalMember(object[key], depth + 1)) return false;
    previous = key;
  }
  return true;
}

function isCanonicalMember(item: unknown, depth: number): boolean {
  switch (typeof item) {
    case 'string':
    case 'boolean':
    case 'undefined':
    case 'function':
    case 'symbol':
      // Native stringify omits the last three from objects and writes null in arrays, as canonical does.
      return true;
    case 'number':
      return item === item && item !== Infinity && item !== -Infinity;
    case 'object':
      return item === null || isInCanonicalOrder(item, depth);
    default:
      return false;
  }
}

/**
 * canonicalWithout for an object already in canonical order whose member `omit`, if present,
 * sorts first and is a plain string: native stringify, with that first member cut off.
 */
export function stringifyIfOrdered(
  object: Record<string, unknown>,
  omit: string,
): string | undefined {
  if (!isInCanonicalOrder(object, 0)) return undefined;
  const keys = Object.keys(object);
  const omitted = keys.indexOf(omit);
  if (omitted > 0) return undefined;
  if (omitted === -1) return JSON.stringify(object);
  const value = object[omit];
  if (typeof value !== 'string') return undefined;
  if (keys.length === 1) return '{}';
  const text = JSON.stringify(object);
  // '{' + '"omit":' + '"value"' + ',' is the prefix to cut.
  return '{' + text.slice(1 + JSON.stringify(omit).length + 1 + JSON.stringify(value).length + 1);
}
