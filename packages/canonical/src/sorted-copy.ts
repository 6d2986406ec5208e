// The copying fast path (docs/spec.md §2): copy a value with every object's members inserted
// in sorted order, then let the engine's native JSON.stringify write the copy.

import {
  BIGINT,
  NON_FINITE,
  RECURSION_LIMIT,
  blocksInsertionOrder,
  resolveJson,
  sortKeys,
} from './json-value.js';

/** What `sortedCopy` returns when the value must take the general path instead. */
export const REFUSED: unique symbol = Symbol('refused');
// A member the sorted copy leaves out (undefined, a function or a symbol).
const OMITTED: unique symbol = Symbol('omitted');

/**
 * The sorted copy of an array or object at nesting `depth`, or REFUSED. Native stringify
 * writes members in insertion order, except that it hoists integer-like names, so a name
 * starting with a digit, or named `__proto__` (which a plain-object copy cannot hold as
 * data), refuses the copy, as does nesting past RECURSION_LIMIT (where a cycle would be).
 *
 * A refusal adds every container on the path from `value` down to the refusing one to
 * `refused`. The general serializer reads that set so that it never asks for a copy of a
 * container already known to refuse: every other container it asks about was either copied
 * completely by the refused attempt (so its own copy succeeds) or never reached by it, and a
 * node is therefore walked by a bounded number of attempts, whatever its depth.
 *
 * At the top level of canonicalWithout, `omit` names the member to leave out. The copy refuses
 * non-finite numbers and BigInt (throwing the sentinels), which native stringify would write
 * as null or throw on.
 */
export function sortedCopy(
  value: object,
  depth: number,
  refused: Set<object>,
  omit?: string,
): unknown {
  if (depth >= RECURSION_LIMIT) {
    refused.add(value);
    return REFUSED;
  }
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const item = copyMember(value[i], i, depth + 1, refused);
      if (item === REFUSED) {
        refused.add(value);
        return REFUSED;
      }
      out[i] = item === OMITTED ? null : item;
    }
    return out;
  }
  const object = value as Record<string, unknown>;
  const keys = sortKeys(Object.keys(object));
  // Names first, members after: an object that refuses does so before its members are copied.
  for (let i = 0; i < keys.length; i++) {
    if (blocksInsertionOrder(keys[i] as string) && keys[i] !== omit) {
      refused.add(value);
      return REFUSED;
    }
  }
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key === omit) continue;
    const item = copyMember(object[key], key, depth + 1, refused);
    if (item === REFUSED) {
      refused.add(value);
      return REFUSED;
    }
    if (item !== OMITTED) out[key] = item;
  }
  return out;
}

function copyMember(
  item: unknown,
  key: string | number,
  depth: number,
  refused: Set<object>,
): unknown {
  switch (typeof item) {
    case 'string':
    case 'boolean':
      return item;
    case 'number':
      if (item !== item || item === Infinity || item === -Infinity) throw NON_FINITE;
      return item;
    case 'object': {
      if (item === null) return null;
      const resolved = resolveJson(item, typeof key === 'number' ? String(key) : key);
      if (typeof resolved === 'object' && resolved !== null)
        return sortedCopy(resolved, depth, refused);
      return copyPrimitive(resolved);
    }
    case 'bigint':
      throw BIGINT;
    default:
      return OMITTED;
  }
}

/** A toJSON result that is not an object: checked like any other primitive. */
function copyPrimitive(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw NON_FINITE;
  if (typeof value === 'bigint') throw BIGINT;
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol')
    return OMITTED;
  return value;
}
