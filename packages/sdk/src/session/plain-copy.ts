// A deep copy of plain JSON data, walked once in the program's member order: what
// JSON.parse(JSON.stringify(value)) gives for such data (docs/spec.md §7: a record keeps the
// member order the program gave), without writing and reading the text back. Anything the
// walk does not know to copy exactly as JSON does is left to that round trip: it answers
// NOT_PLAIN and the caller takes the general path.

/** Returned when `value` is not plain JSON data this walk copies exactly. */
export const NOT_PLAIN = Symbol('not plain');

/** Deeper than this, the general path (which locates cycles) takes over. */
const MAX_DEPTH = 64;

/**
 * The copy of `value` (strings, finite numbers, booleans, null, arrays and objects whose
 * prototype is Object.prototype or null), or NOT_PLAIN for anything else: a non-finite number,
 * a BigInt, a member `toJSON` or `__proto__`, an instance of a class (a Date, a Map, a boxed
 * primitive), or nesting deeper than MAX_DEPTH. Members whose value is
 * undefined, a function or a symbol are left out, and such array items become null, as in JSON.
 */
export function plainCopy(value: unknown): unknown {
  return copyValue(value, 0);
}

function copyValue(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // -0 + 0 is +0, as JSON writes it.
      return Number.isFinite(value) ? value + 0 : NOT_PLAIN;
    case 'object':
      if (value === null) return null;
      if (depth >= MAX_DEPTH) return NOT_PLAIN;
      return Array.isArray(value) ? copyArray(value, depth + 1) : copyObject(value, depth + 1);
    default:
      return NOT_PLAIN;
  }
}

function copyArray(source: readonly unknown[], depth: number): unknown {
  if (Object.getPrototypeOf(source) !== Array.prototype) return NOT_PLAIN;
  const out = new Array<unknown>(source.length);
  for (let i = 0; i < source.length; i++) {
    const item = source[i]; // a hole reads as undefined and becomes null, as in JSON
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
      out[i] = null;
      continue;
    }
    const copied = copyValue(item, depth);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    out[i] = copied;
  }
  return out;
}

function copyObject(source: object, depth: number): unknown {
  const proto: unknown = Object.getPrototypeOf(source);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  const record = source as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === '__proto__' || key === 'toJSON') return NOT_PLAIN;
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    const copied = copyValue(item, depth);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    out[key] = copied;
  }
  return out;
}
