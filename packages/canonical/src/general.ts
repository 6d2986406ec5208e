// The general serializer (docs/spec.md §2): builds the canonical text member by member, for
// values the fast paths refuse (integer-like or `__proto__` member names, deep nesting).
//
// Linear in the size of the value at every depth: each container below a refused one gets at
// most one attempt at the sorted copy, and none when `refused` already holds it (see
// sortedCopy). Past RECURSION_LIMIT the subtree goes to an explicit-stack serializer, so
// arbitrarily deep input never overflows the call stack; that serializer also tracks its
// ancestors, which is how a cyclic value is caught instead of looping forever.

import {
  CYCLE,
  RECURSION_LIMIT,
  quote,
  resolveJson,
  serializePrimitive,
  sortKeys,
} from './json-value.js';
import { REFUSED, sortedCopy } from './sorted-copy.js';

/**
 * How the general serializer works on one value: `refused` holds the containers known to
 * refuse the sorted copy; `attempts` is false below a value produced by a `toJSON` method,
 * whose result may be a fresh object at every call and so cannot be matched against
 * `refused` (such a subtree is written member by member, without attempts).
 */
interface Walk {
  readonly refused: Set<object>;
  readonly attempts: boolean;
}

const NO_ATTEMPTS: Walk = { refused: new Set(), attempts: false };

/** Canonical text of a resolved value at nesting `depth`; `undefined` means omitted. */
export function serializeValue(value: unknown, depth: number, walk: Walk): string | undefined {
  if (typeof value !== 'object' || value === null) return serializePrimitive(value);
  if (depth >= RECURSION_LIMIT) return serializeDeep(value);
  if (walk.attempts && !walk.refused.has(value)) {
    const copy = sortedCopy(value, depth, walk.refused);
    if (copy !== REFUSED) return JSON.stringify(copy);
  }
  return Array.isArray(value)
    ? serializeArray(value, depth + 1, walk)
    : serializeObject(value as Record<string, unknown>, depth + 1, walk, undefined);
}

function serializeArray(array: readonly unknown[], depth: number, walk: Walk): string {
  const n = array.length;
  if (n === 0) return '[]';
  let out = '[';
  for (let i = 0; i < n; i++) {
    if (i > 0) out += ',';
    const raw = array[i];
    const item = typeof raw === 'object' && raw !== null ? resolveJson(raw, String(i)) : raw;
    out += serializeValue(item, depth, item === raw ? walk : NO_ATTEMPTS) ?? 'null';
  }
  return out + ']';
}

/** Members of `object` in canonical order, `omit` (at the top of canonicalWithout) left out. */
export function serializeObject(
  object: Record<string, unknown>,
  depth: number,
  walk: Walk,
  omit: string | undefined,
): string {
  const keys = sortKeys(Object.keys(object));
  let out = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key === omit) continue;
    const raw = object[key];
    const item = typeof raw === 'object' && raw !== null ? resolveJson(raw, key) : raw;
    const text = serializeValue(item, depth, item === raw ? walk : NO_ATTEMPTS);
    if (text === undefined) continue;
    if (first) first = false;
    else out += ',';
    out += quote(key) + ':' + text;
  }
  return out + '}';
}

interface Frame {
  readonly container: object;
  readonly isArray: boolean;
  readonly keys: readonly string[];
  index: number;
  wrote: boolean;
}

/**
 * Explicit-stack serializer for subtrees deeper than RECURSION_LIMIT. Same output as the
 * recursive path; detects cycles by keeping the containers on the current path in a set.
 */
function serializeDeep(root: object): string {
  const onPath = new Set<object>();
  const stack: Frame[] = [];
  let out = '';

  const open = (container: object): void => {
    if (onPath.has(container)) throw CYCLE;
    onPath.add(container);
    const isArray = Array.isArray(container);
    stack.push({
      container,
      isArray,
      keys: isArray ? [] : sortKeys(Object.keys(container)),
      index: 0,
      wrote: false,
    });
    out += isArray ? '[' : '{';
  };

  open(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.isArray ? (frame.container as unknown[]).length : frame.keys.length;
    if (frame.index >= length) {
      out += frame.isArray ? ']' : '}';
      onPath.delete(frame.container);
      stack.pop();
      continue;
    }
    const i = frame.index++;
    const key = frame.isArray ? String(i) : (frame.keys[i] as string);
    const item = resolveJson((frame.container as Record<string, unknown>)[key], key);
    const isContainer = typeof item === 'object' && item !== null;
    const text = isContainer ? '' : serializePrimitive(item);
    if (text === undefined && !frame.isArray) continue;
    if (frame.wrote) out += ',';
    frame.wrote = true;
    if (!frame.isArray) out += quote(key) + ':';
    if (isContainer) open(item);
    else out += text ?? 'null';
  }
  return out;
}

/** The walk for a value that was not produced by `toJSON`. */
export function freshWalk(): Walk {
  return { refused: new Set(), attempts: true };
}
