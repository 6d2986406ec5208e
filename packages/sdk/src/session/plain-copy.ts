// A deep copy of plain JSON data, walked once in the program's member order: what
// JSON.parse(JSON.stringify(value)) gives for such data (docs/spec.md §7: a record keeps the
// member order the program gave), without writing and reading the text back. The same walk
// writes the copy's two texts: as JSON.stringify writes it (members in the program's order) and
// canonically (docs/spec.md §2: members sorted by UTF-16 code units), each string, number and
// name written once and shared by both. Anything the walk does not know to copy exactly as JSON
// does is left to that round trip: it answers NOT_PLAIN and the caller takes the general path.

/** Returned when `value` is not plain JSON data this walk copies exactly. */
export const NOT_PLAIN = Symbol('not plain');

/** Deeper than this, the general path (which locates cycles) takes over. */
const MAX_DEPTH = 64;

/** A snapshot of plain JSON data: the copy, its JSON text, and its canonical text. */
export interface PlainSnapshot {
  readonly copy: unknown;
  /** JSON.stringify(copy): the members in the order the program gave them (docs/spec.md §7). */
  readonly stored: string;
  /** canonical(copy) (docs/spec.md §2). */
  readonly canonical: string;
  /** Whether the two texts are one string (every object inside in sorted order). */
  readonly same: boolean;
}

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

/** plainCopy of an object or array, with the copy's stored and canonical texts; or NOT_PLAIN. */
export function plainSnapshot(value: object): PlainSnapshot | typeof NOT_PLAIN {
  const copy = copyValue(value, 0);
  if (copy === NOT_PLAIN) return NOT_PLAIN;
  return { copy, stored: texts.stored, canonical: texts.canonical, same: texts.same };
}

/**
 * The texts of the value copyValue last returned (module state rather than a pair per value:
 * the walk allocates only the copy and the texts). `same` says the two texts are one string
 * (every object inside in sorted order), which its container then shares instead of building
 * twice. JSON.stringify writes a finite number as Number::toString does (so -0 is "0"), as
 * canonical form does; strings and names are escaped by JSON.stringify, as both texts require.
 */
const texts = { stored: '', canonical: '', same: true };

function copyValue(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      texts.stored = texts.canonical = quote(value);
      texts.same = true;
      return value;
    case 'boolean':
      texts.stored = texts.canonical = value ? 'true' : 'false';
      texts.same = true;
      return value;
    case 'number':
      if (!Number.isFinite(value)) return NOT_PLAIN;
      texts.stored = texts.canonical = String(value);
      texts.same = true;
      // -0 + 0 is +0, as JSON writes it.
      return value + 0;
    case 'object':
      if (value === null) {
        texts.stored = texts.canonical = 'null';
        texts.same = true;
        return null;
      }
      if (depth >= MAX_DEPTH) return NOT_PLAIN;
      return Array.isArray(value) ? copyArray(value, depth + 1) : copyObject(value, depth + 1);
    default:
      return NOT_PLAIN;
  }
}

function copyArray(source: readonly unknown[], depth: number): unknown {
  if (Object.getPrototypeOf(source) !== Array.prototype) return NOT_PLAIN;
  const out = new Array<unknown>(source.length);
  let stored = '[';
  // Built only once an item's texts differ; until then it is `stored`.
  let canonical: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const comma = i === 0 ? '' : ',';
    const item = source[i]; // a hole reads as undefined and becomes null, as in JSON
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
      out[i] = null;
      stored += `${comma}null`;
      if (canonical !== undefined) canonical += `${comma}null`;
      continue;
    }
    const before = stored;
    const copied = copyValue(item, depth);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    out[i] = copied;
    stored += comma + texts.stored;
    if (canonical !== undefined) canonical += comma + texts.canonical;
    else if (!texts.same) canonical = before + comma + texts.canonical;
  }
  texts.stored = `${stored}]`;
  texts.same = canonical === undefined;
  texts.canonical = canonical === undefined ? texts.stored : `${canonical}]`;
  return out;
}

function copyObject(source: object, depth: number): unknown {
  const proto: unknown = Object.getPrototypeOf(source);
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  const record = source as Record<string, unknown>;
  const keys = Object.keys(record);
  // Names in sorted order (the engine lists integer-like names first, so not always): the
  // canonical text is then written as the stored one is, and is the same string while every
  // member's are; else each member's canonical text is kept and they are joined in sorted
  // order at the end.
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++)
    sorted = (keys[i - 1] as string) < (keys[i] as string);
  const members: string[] | undefined = sorted ? undefined : [];
  const names: string[] | undefined = sorted ? undefined : [];
  let stored = '{';
  // In sorted order: built only once a member's texts differ; until then it is `stored`.
  let canonical: string | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key === '__proto__' || key === 'toJSON') return NOT_PLAIN;
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    const before = stored;
    const copied = copyValue(item, depth);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    out[key] = copied;
    const label = labelOf(key);
    const comma = before.length === 1 ? '' : ',';
    stored += comma + label + texts.stored;
    if (members !== undefined) {
      members.push(label + texts.canonical);
      (names as string[]).push(key);
    } else if (canonical !== undefined) canonical += comma + label + texts.canonical;
    else if (!texts.same) canonical = before + comma + label + texts.canonical;
  }
  texts.stored = `${stored}}`;
  if (members !== undefined) {
    texts.same = false;
    texts.canonical = `{${joinSorted(names as string[], members)}}`;
  } else {
    texts.same = canonical === undefined;
    texts.canonical = canonical === undefined ? texts.stored : `${canonical}}`;
  }
  return out;
}

/** `members` joined by `,` in the (UTF-16 code unit) order of their `names`. */
function joinSorted(names: readonly string[], members: readonly string[]): string {
  const order = names.map((_, i) => i);
  // An insertion sort: objects are small. Names are distinct, so `<` decides every pair.
  for (let i = 1; i < order.length; i++) {
    const at = order[i] as number;
    const name = names[at] as string;
    let j = i - 1;
    while (j >= 0 && (names[order[j] as number] as string) > name) {
      order[j + 1] = order[j] as number;
      j--;
    }
    order[j + 1] = at;
  }
  let out = '';
  for (let i = 0; i < order.length; i++) {
    out += i === 0 ? members[order[i] as number] : `,${members[order[i] as number]}`;
  }
  return out;
}

/**
 * `"name":` for member names seen before (a bounded set: agents reuse a few hundred names, and
 * events a handful); known-text.ts writes an event's member labels with it too.
 */
const labels = new Map<string, string>();

export function labelOf(name: string): string {
  let label = labels.get(name);
  if (label === undefined) {
    label = `${quote(name)}:`;
    if (labels.size < 1024) labels.set(name, label);
  }
  return label;
}

/**
 * A string as JSON.stringify writes it: short strings with nothing to escape (no `"`, `\`,
 * control character or surrogate) are quoted here, sparing a native call per name and value.
 */
export function quote(text: string): string {
  const n = text.length;
  if (n > 32) return JSON.stringify(text);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff))
      return JSON.stringify(text);
  }
  return `"${text}"`;
}
