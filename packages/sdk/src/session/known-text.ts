// The texts the recorder has already computed for a value. A value is serialised when it is
// snapshotted (snapshot.ts): canonically, for every hash and replay key (docs/spec.md §2), and as
// the program gave it, for storage (docs/spec.md §7: records keep the program's member order).
// The event holding it is serialised again when it is sealed; remembering both texts (on the
// snapshot object, which nothing mutates: redaction copies on write) lets the sealer assemble
// the event's texts from its members' texts instead.
//
// They are held under a symbol-named, non-enumerable member of the snapshot: JSON.stringify,
// Object.keys, Object.assign and spread all leave it out, so no copy (a redacted one included)
// carries it, and a lookup is a property read (a weak map cost the collector an ephemeron per
// value: pnpm bench (c)). Only a Texts instance counts: a Proxy's answer for an unknown member
// is not one.
import { canonical } from '@runback/canonical';
import { NOT_PLAIN, labelOf, plainSnapshot, quote } from './plain-copy.js';

class Texts {
  constructor(
    /** canonical(value) */
    readonly canonical: string,
    /** JSON.stringify(value): the members in the order the program gave them. */
    readonly stored: string,
    /** The two are equal (told by the writer: comparing unflattened texts would flatten them). */
    readonly same: boolean,
  ) {}
}

const TEXTS = Symbol('runback.texts');

/** The remembered texts of an object, if any. */
function textsOf(value: object): Texts | undefined {
  const texts = (value as { [TEXTS]?: unknown })[TEXTS];
  return texts instanceof Texts ? texts : undefined;
}

/**
 * Records that `canonical(value) === canonicalText` and `JSON.stringify(value) === storedText`;
 * `same` that the two texts are equal (compared here when not given).
 */
export function rememberTexts(
  value: object,
  canonicalText: string,
  storedText: string,
  same = canonicalText === storedText,
): void {
  Object.defineProperty(value, TEXTS, { value: new Texts(canonicalText, storedText, same) });
}

/** The remembered canonical text of `value`, if any. */
export function knownText(value: object): string | undefined {
  return textsOf(value)?.canonical;
}

/** canonical(value), reusing a remembered text. */
export function canonicalOf(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null)
    return textsOf(value)?.canonical ?? canonical(value);
  return canonical(value);
}

/** An event's canonical text (what is hashed) and its stored text (what is written). */
export interface EventTexts {
  readonly canonical: string;
  /**
   * Members in canonical order, each value's members in the order the program gave them: the
   * canonical string itself when every value is in canonical order.
   */
  readonly stored: string;
  /** The event's first member name in sorted order ("" for an event with none). */
  readonly firstName: string;
}

/**
 * The texts of an event object whose member values are JSON data, built from its members'
 * texts. `canonical` is `{` + `"name":text` in sorted (UTF-16) name order, joined by `,` + `}`,
 * the object rule of docs/spec.md §2. `stored` lists the event's own members in the same order
 * and writes each value as the program gave it (its remembered text, else its JSON text, which
 * keeps insertion order). The two are one string while every value is in canonical order, so
 * the text is built (and later flattened) once. Members whose value is undefined are left out
 * of both, as canonical() and JSON.stringify leave them out.
 */
export function eventTexts(event: Readonly<Record<string, unknown>>): EventTexts {
  const names = sortedNames(event);
  let canonicalText = '{';
  // Built once a member's texts differ; until then it is `canonicalText`.
  let storedText: string | undefined;
  let first = true;
  for (const name of names) {
    const value = event[name];
    if (value === undefined) continue;
    const label = first ? labelOf(name) : `,${labelOf(name)}`;
    first = false;
    if (typeof value === 'object' && value !== null) {
      const known = textsOf(value) ?? textsFor(value);
      if (known.same) {
        const piece = label + known.canonical;
        if (storedText !== undefined) storedText += piece;
        canonicalText += piece;
      } else {
        storedText = (storedText ?? canonicalText) + label + known.stored;
        canonicalText += label + known.canonical;
      }
    } else {
      const piece = label + primitiveText(value);
      if (storedText !== undefined) storedText += piece;
      canonicalText += piece;
    }
  }
  const canonicalEvent = `${canonicalText}}`;
  return {
    canonical: canonicalEvent,
    stored: storedText === undefined ? canonicalEvent : `${storedText}}`,
    firstName: names[0] ?? '',
  };
}

/**
 * The texts of a member value no snapshot remembered (a model reference, merged metadata, an
 * error): plain data in one walk, anything else as canonical() and JSON.stringify write it.
 */
function textsFor(value: object): Texts {
  const plain = plainSnapshot(value);
  if (plain !== NOT_PLAIN) return new Texts(plain.canonical, plain.stored, plain.same);
  const canonicalText = canonical(value);
  const storedText = JSON.stringify(value);
  return new Texts(canonicalText, storedText, canonicalText === storedText);
}

/**
 * An event's member names, sorted. Events of one kind have one shape, so the sorted list of the
 * last few shapes is kept and reused when the names match theirs one for one.
 */
const shapes: { readonly names: readonly string[]; readonly sorted: readonly string[] }[] = [];
let nextShape = 0;

function sortedNames(event: object): readonly string[] {
  const names = Object.keys(event);
  for (const shape of shapes) {
    const known = shape.names;
    if (known.length !== names.length) continue;
    let i = 0;
    while (i < names.length && names[i] === known[i]) i++;
    if (i === names.length) return shape.sorted;
  }
  const sorted = [...names].sort();
  shapes[nextShape] = { names, sorted };
  nextShape = (nextShape + 1) % 8;
  return sorted;
}

/**
 * The canonical text of a string, a finite number (ECMAScript Number::toString, so -0 is "0"),
 * a boolean or null: docs/spec.md §2. Anything else goes through canonical(), which refuses it.
 */
function primitiveText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : canonical(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : canonical(value);
  }
}
