// Canonical texts the recorder has already computed. A value is serialised canonically when it
// is snapshotted (run/snapshot.ts); the event holding it is serialised again when it is sealed.
// Remembering the first text (keyed by the snapshot object, which nothing mutates: redaction
// copies on write) lets the sealer assemble the event's text from its members' texts instead.
import { canonical } from '@runback/canonical';

const texts = new WeakMap<object, string>();

/** Records that `canonical(value) === text`. */
export function rememberText(value: object, text: string): void {
  texts.set(value, text);
}

/** The remembered canonical text of `value`, if any. */
export function knownText(value: object): string | undefined {
  return texts.get(value);
}

/** canonical(value), reusing a remembered text. */
export function canonicalOf(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null) return texts.get(value) ?? canonical(value);
  return canonical(value);
}

/**
 * canonical(event) for an event object whose member values are JSON data, built from its
 * members' texts: `{` + `"name":text` in sorted (UTF-16) name order, joined by `,` + `}`, the
 * object rule of docs/spec.md §2. Members whose value is undefined are left out, as canonical()
 * leaves them out.
 */
export function eventCanonical(event: Readonly<Record<string, unknown>>): string {
  const names = Object.keys(event).sort();
  let out = '{';
  let first = true;
  for (const name of names) {
    const value = event[name];
    if (value === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(name)}:${canonicalOf(value)}`;
    first = false;
  }
  return `${out}}`;
}
