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
// This is the hot path of every verification, so the common case is a plain recursive
// serializer. Past RECURSION_LIMIT nested containers it hands the subtree to an explicit-stack
// serializer, so arbitrarily deep input never overflows the call stack; that serializer also
// tracks its ancestors, which is how a cyclic value is caught instead of looping forever.

import { CanonicalError } from './errors.js';
import { toPointer } from './pointer.js';

const RECURSION_LIMIT = 400;

/**
 * Returns the canonical JSON text of `value`.
 *
 * @throws {CanonicalError} (a TypeError) for NaN, ±Infinity, a BigInt, or a cyclic value.
 */
export function canonical(value: unknown): string {
  try {
    return serializeValue(resolveJson(value, ''), 0) ?? 'null';
  } catch (err) {
    throw locateProblem(err, value);
  }
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
    return (
      stringifyIfOrdered(object as Record<string, unknown>, omit) ??
      stringifySortedCopy(object, 0, omit) ??
      serializeObject(object as Record<string, unknown>, 1, omit)
    );
  } catch (err) {
    throw locateProblem(err, object, omit);
  }
}

/** JSON.stringify's SerializeJSONProperty preamble: toJSON, then unboxing of wrappers. */
function resolveJson(value: unknown, key: string): unknown {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (k: string) => unknown).call(value, key);
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      value = value.valueOf();
    }
  }
  return value;
}

/** Serializes one value; `undefined` means "omitted" (undefined, function or symbol). */
function serializeValue(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (value !== value || value === Infinity || value === -Infinity) throw NON_FINITE;
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= RECURSION_LIMIT) return serializeDeep(value);
      if (isInCanonicalOrder(value, depth)) return JSON.stringify(value);
      const fast = stringifySortedCopy(value, depth);
      if (fast !== undefined) return fast;
      return Array.isArray(value)
        ? serializeArray(value, depth + 1)
        : serializeObject(value as Record<string, unknown>, depth + 1, undefined);
    }
    case 'bigint':
      throw BIGINT;
    default:
      return undefined;
  }
}

function serializeArray(array: readonly unknown[], depth: number): string {
  const n = array.length;
  if (n === 0) return '[]';
  let out = '[';
  for (let i = 0; i < n; i++) {
    if (i > 0) out += ',';
    let item = array[i];
    if (typeof item === 'object' && item !== null) item = resolveJson(item, String(i));
    out += serializeValue(item, depth) ?? 'null';
  }
  return out + ']';
}

function serializeObject(
  object: Record<string, unknown>,
  depth: number,
  omit: string | undefined,
): string {
  const keys = sortKeys(Object.keys(object));
  let out = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key === omit) continue;
    let item = object[key];
    if (typeof item === 'object' && item !== null) item = resolveJson(item, key);
    const text = serializeValue(item, depth);
    if (text === undefined) continue;
    if (first) first = false;
    else out += ',';
    out += quote(key) + ':' + text;
  }
  return out + '}';
}

/**
 * A string as JSON.stringify writes it. JSON.stringify costs a native call per string, which
 * dominates for the short member names and values of records; a short string with nothing to
 * escape (no `"`, `\`, control character or surrogate) is quoted directly instead.
 */
function quote(text: string): string {
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
function sortKeys(keys: string[]): string[] {
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

// Sentinels thrown from the hot path; `canonical` replaces them with a located CanonicalError.
const NON_FINITE = new CanonicalError('CANONICAL_NON_FINITE_NUMBER', 'non-finite', '');
const BIGINT = new CanonicalError('CANONICAL_BIGINT', 'bigint', '');
const CYCLE = new CanonicalError('CANONICAL_CYCLE', 'cycle', '');
// Thrown inside the fast path only, where the sorted copy cannot be trusted to keep its order.
const NOT_FAST = Symbol('not-fast');
// A member the sorted copy leaves out (undefined, a function or a symbol).
const OMITTED = Symbol('omitted');

/**
 * The fast path: copy the value with every object's members inserted in sorted order, then let
 * the engine's native JSON.stringify write it. Native stringify writes members in insertion
 * order, except that it hoists integer-like names; a name starting with a digit, or named
 * `__proto__` (which a plain-object copy cannot hold as data), sends the value to the
 * string-building path instead, as does nesting past RECURSION_LIMIT (where a cycle would
 * be). The copy also refuses non-finite numbers and BigInt, which native stringify would
 * write as null or throw on. Returns undefined when the value must take the other path.
 */
function stringifySortedCopy(value: object, depth: number, omit?: string): string | undefined {
  let copy: unknown;
  try {
    copy = copyContainer(value, depth, omit);
  } catch (err) {
    if (err === NOT_FAST) return undefined;
    throw err;
  }
  return JSON.stringify(copy);
}

/**
 * Whether native JSON.stringify already writes `value` canonically: plain objects and arrays
 * only, every object's member names in sorted order (none starting with a digit, none named
 * `__proto__`), finite numbers, no BigInt, no toJSON, shallower than RECURSION_LIMIT. Records
 * written by runback keep their events in this order, so verifying them needs no copy. The walk
 * allocates nothing but key lists and stops at the first object out of order.
 */
function isInCanonicalOrder(value: object, depth: number): boolean {
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
function stringifyIfOrdered(object: Record<string, unknown>, omit: string): string | undefined {
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

/**
 * The sorted copy of an array or object. At the top level of canonicalWithout, `omit` names the
 * member to leave out.
 */
function copyContainer(value: object, depth: number, omit?: string): unknown {
  if (depth >= RECURSION_LIMIT) throw NOT_FAST;
  if (Array.isArray(value)) {
    const n = value.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const item = copyMember(value[i], i, depth + 1);
      out[i] = item === OMITTED ? null : item;
    }
    return out;
  }
  const object = value as Record<string, unknown>;
  const keys = sortKeys(Object.keys(object));
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key === omit) continue;
    const first = key.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || key === '__proto__') throw NOT_FAST;
    const item = copyMember(object[key], key, depth + 1);
    if (item !== OMITTED) out[key] = item;
  }
  return out;
}

function copyMember(item: unknown, key: string | number, depth: number): unknown {
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
      if (typeof resolved === 'object' && resolved !== null) return copyContainer(resolved, depth);
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
      keys: isArray ? [] : Object.keys(container).sort(),
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
    const text = isContainer ? '' : serializeValue(item, 0);
    if (text === undefined && !frame.isArray) continue;
    if (frame.wrote) out += ',';
    frame.wrote = true;
    if (!frame.isArray) out += JSON.stringify(key) + ':';
    if (isContainer) open(item);
    else out += text ?? 'null';
  }
  return out;
}

/**
 * Turns a hot-path sentinel into a CanonicalError that names the offending value's JSON
 * Pointer and says what was expected. Runs only on failure, so the hot path carries no path
 * bookkeeping.
 */
function locateProblem(err: unknown, root: unknown, omit?: string): unknown {
  if (err !== NON_FINITE && err !== BIGINT && err !== CYCLE) {
    // Not a sentinel (a throwing getter or toJSON, say): not ours to relabel.
    return err;
  }
  const found = findProblem(root, omit);
  const pointer = found ? toPointer(found.path) : '';
  switch (err) {
    case NON_FINITE:
      return new CanonicalError(
        'CANONICAL_NON_FINITE_NUMBER',
        `expected a finite number, got ${found ? String(found.value) : 'a non-finite number'}`,
        pointer,
      );
    case BIGINT:
      return new CanonicalError(
        'CANONICAL_BIGINT',
        `expected a JSON number, got a BigInt${found ? ` (${String(found.value)}n)` : ''}`,
        pointer,
      );
    default:
      return new CanonicalError(
        'CANONICAL_CYCLE',
        'expected an acyclic value, got a reference to an enclosing object',
        pointer,
      );
  }
}

interface Problem {
  readonly path: (string | number)[];
  readonly value: unknown;
}

/** Depth-first search, in canonical member order, for the first value with no JSON form. */
function findProblem(root: unknown, omit?: string): Problem | null {
  interface Item {
    value: unknown;
    path: (string | number)[];
    ancestors: readonly object[];
  }
  const stack: Item[] = [{ value: resolveJson(root, ''), path: [], ancestors: [] }];
  while (stack.length > 0) {
    const { value, path, ancestors } = stack.pop() as Item;
    if (typeof value === 'bigint') return { path, value };
    if (typeof value === 'number' && !Number.isFinite(value)) return { path, value };
    if (typeof value !== 'object' || value === null) continue;
    if (ancestors.includes(value)) return { path, value };
    const next = [...ancestors, value];
    const keys = Array.isArray(value)
      ? value.map((_, i) => String(i))
      : Object.keys(value)
          .sort()
          .filter((k) => !(path.length === 0 && k === omit));
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      const child = resolveJson((value as Record<string, unknown>)[key], key);
      stack.push({
        value: child,
        path: [...path, Array.isArray(value) ? i : key],
        ancestors: next,
      });
    }
  }
  return null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
