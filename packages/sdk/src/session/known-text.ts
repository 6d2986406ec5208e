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

class Texts {
  constructor(
    /** canonical(value) */
    readonly canonical: string,
    /** JSON.stringify(value): the members in the order the program gave them. */
    readonly stored: string,
  ) {}
}

const TEXTS = Symbol('runback.texts');

/** The remembered texts of an object, if any. */
function textsOf(value: object): Texts | undefined {
  const texts = (value as { [TEXTS]?: unknown })[TEXTS];
  return texts instanceof Texts ? texts : undefined;
}

/** Records that `canonical(value) === canonicalText` and `JSON.stringify(value) === storedText`. */
export function rememberTexts(value: object, canonicalText: string, storedText: string): void {
  Object.defineProperty(value, TEXTS, { value: new Texts(canonicalText, storedText) });
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
  /** Members in canonical order, each value's members in the order the program gave them. */
  readonly stored: string;
  /** The event's first member name in sorted order ("" for an event with none). */
  readonly firstName: string;
}

/**
 * The texts of an event object whose member values are JSON data, built from its members'
 * texts. `canonical` is `{` + `"name":text` in sorted (UTF-16) name order, joined by `,` + `}`,
 * the object rule of docs/spec.md §2. `stored` lists the event's own members in the same order
 * and writes each value as the program gave it (its remembered text, else JSON.stringify, which
 * keeps insertion order). The two are equal when every value is in canonical order. Members
 * whose value is undefined are left out of both, as canonical() and JSON.stringify leave them out.
 */
export function eventTexts(event: Readonly<Record<string, unknown>>): EventTexts {
  const names = Object.keys(event).sort();
  let canonicalText = '{';
  let storedText = '{';
  let first = true;
  for (const name of names) {
    const value = event[name];
    if (value === undefined) continue;
    const label = first ? labelOf(name) : `,${labelOf(name)}`;
    first = false;
    if (typeof value === 'object' && value !== null) {
      const known = textsOf(value);
      canonicalText += label + (known?.canonical ?? canonical(value));
      storedText += label + (known?.stored ?? JSON.stringify(value));
    } else {
      const text = primitiveText(value);
      canonicalText += label + text;
      storedText += label + text;
    }
  }
  return { canonical: `${canonicalText}}`, stored: `${storedText}}`, firstName: names[0] ?? '' };
}

/** `"name":` for the member names events use (a handful, so they are kept). */
const labels = new Map<string, string>();

function labelOf(name: string): string {
  let label = labels.get(name);
  if (label === undefined) {
    label = `${JSON.stringify(name)}:`;
    if (labels.size < 256) labels.set(name, label);
  }
  return label;
}

/**
 * The canonical text of a string, a finite number (ECMAScript Number::toString, so -0 is "0"),
 * a boolean or null: docs/spec.md §2. Anything else goes through canonical(), which refuses it.
 */
function primitiveText(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : canonical(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : canonical(value);
  }
}
