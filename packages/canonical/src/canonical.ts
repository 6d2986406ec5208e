// Canonical JSON, as the record format defines it (docs/spec.md §2 "Canonical form").
//
// RFC 8785-equivalent: object members sorted by UTF-16 code units and written straight from
// the sorted key list (never rebuilt into a fresh object, which would let the engine hoist
// integer-like keys first), numbers in ECMAScript Number::toString form (so -0 is "0"),
// strings exactly as JSON.stringify escapes them (lone surrogates become \udxxx), members
// whose value is undefined, a function or a symbol omitted, such values inside arrays written
// as null, and a top-level undefined written as null. NaN and ±Infinity have no JSON form and
// are refused. `toJSON` and boxed primitives behave as in JSON.stringify, so writers may pass
// Dates; records read from JSON text never contain either.
//
// This is the hot path of every verification. The serializer is chosen once per value, from
// its root: native JSON.stringify when the value is already in canonical order
// (isInCanonicalOrder), else native JSON.stringify of a sorted copy (sortedCopy), else the
// general serializer, which writes member by member and reuses what the refused copy learnt
// so that no part of the value is walked again at every level. Each is linear in the size of
// the value, so the whole is linear at any depth.

import { freshWalk, serializeObject, serializeValue } from './general.js';
import { isInCanonicalOrder, stringifyIfOrdered } from './in-order.js';
import { resolveJson, sortKeys } from './json-value.js';
import { locateProblem } from './locate.js';
import { REFUSED, sortedCopy } from './sorted-copy.js';

/**
 * Returns the canonical JSON text of `value`.
 *
 * @throws {CanonicalError} (a TypeError) for NaN, ±Infinity, a BigInt, or a cyclic value.
 */
export function canonical(value: unknown): string {
  try {
    return serializeRoot(resolveJson(value, '')) ?? 'null';
  } catch (err) {
    throw locateProblem(err, value);
  }
}

function serializeRoot(value: unknown): string | undefined {
  const walk = freshWalk();
  if (typeof value === 'object' && value !== null) {
    if (isInCanonicalOrder(value, 0)) return JSON.stringify(value);
    const copy = sortedCopy(value, 0, walk.refused);
    if (copy !== REFUSED) return JSON.stringify(copy);
  }
  return serializeValue(value, 0, walk);
}

/**
 * Returns the canonical JSON text of `object` as if its member `omit` were absent, without
 * changing it. This is how an event is hashed with its own `_hash` member excluded.
 *
 * @throws {TypeError} when `object` is not a non-array object.
 * @throws {CanonicalError} as `canonical` does.
 */
export function canonicalWithout(object: object, omit: string): string {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw new TypeError(`canonicalWithout: expected a non-array object, got ${describe(object)}`);
  }
  try {
    const ordered = stringifyIfOrdered(object as Record<string, unknown>, omit);
    if (ordered !== undefined) return ordered;
    const walk = freshWalk();
    const copy = sortedCopy(object, 0, walk.refused, omit);
    if (copy !== REFUSED) return JSON.stringify(copy);
    return serializeObject(object as Record<string, unknown>, 1, walk, omit);
  } catch (err) {
    throw locateProblem(err, object, omit);
  }
}

/**
 * A deep copy of a JSON value with every object's members inserted in canonical (sorted)
 * order, so that the copy's JSON text lists members as its canonical form does. Writers store
 * records this way; a verifier then hashes events with a single native stringify. Names that
 * an engine always enumerates first (array-index names such as "0" or "42") cannot be
 * reordered: such objects still hash correctly, on the slower path.
 *
 * @throws {CanonicalError} as `canonical` does.
 */
export function canonicalOrder<T>(value: T): T {
  canonical(value); // validates: non-finite numbers, BigInt and cycles throw a located error
  return JSON.parse(JSON.stringify(orderedCopy(value)) ?? 'null') as T;
}

function orderedCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const resolved = resolveJson(value, '');
  if (typeof resolved !== 'object' || resolved === null) return resolved;
  if (Array.isArray(resolved)) return resolved.map((item: unknown) => orderedCopy(item));
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of sortKeys(Object.keys(resolved)))
    out[key] = orderedCopy((resolved as Record<string, unknown>)[key]);
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
