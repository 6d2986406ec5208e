// The one property the fast path must hold: whatever canonical text it cuts from the input is
// exactly what the general path computes from the parsed value (docs/spec.md §2, §3, §4.3).
import { canonical, canonicalWithout } from '@runback/canonical';
import { expect } from 'vitest';
import type { KnownMemberTexts } from '@runback/replay-digest';
import { parseJsonStrict, parseJsonStrictSpans, type ProvenSpans } from '../../src/json/index.js';
import { scanCanonicalEvents } from '../../src/fast-path/canonical-events.js';

/** Members looked up besides an event's own: absent ones must come back undefined. */
const ABSENT = ['request', 'input', 'output', 'response', 'nope', '_has', 'a"'];

/**
 * Reads `text` strictly and checks every event text and member text the fast path offers
 * against canonicalWithout / canonical of the parsed value. Returns how many events it offered
 * (so tests can require the fast path to be taken), or -1 when the text has no events array.
 */
export function expectAgreement(text: string): number {
  const events = expectedEvents(expectSameReading(text));
  if (events === null) return -1;
  const known = knownFor(scanCanonicalEvents(text), events);
  let offered = 0;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const fast = known?.eventText(i);
    if (fast !== undefined) {
      offered++;
      expect(fast).toBe(canonicalWithout(event as object, '_hash'));
    }
    expectMemberAgreement(known, i, event);
  }
  return offered;
}

/**
 * The parsed events array of a reading that must succeed, or null when the record has none.
 */
export function expectedEvents(parsed: ReturnType<typeof parseJsonStrict>): unknown[] | null {
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return null;
  const record = parsed.value as { events?: unknown };
  const events = record !== null && typeof record === 'object' ? record.events : undefined;
  return Array.isArray(events) ? events : null;
}

/**
 * What a pass found, when it read as many events as were parsed (requiring that it did, when
 * it found anything); else null.
 */
export function knownFor<T extends { readonly count: number }>(
  scanned: T | null,
  events: readonly unknown[],
): T | null {
  if (scanned !== null) expect(scanned.count).toBe(events.length);
  return scanned?.count === events.length ? scanned : null;
}

/** Every member text `known` offers for event `i` is canonical(event[name]) of a member it has. */
export function expectMemberAgreement(
  known: KnownMemberTexts | null,
  i: number,
  event: unknown,
): void {
  const names =
    event !== null && typeof event === 'object' && !Array.isArray(event)
      ? [...Object.keys(event), ...ABSENT]
      : ABSENT;
  for (const name of names) {
    const member = known?.memberText(i, name);
    if (member === undefined) continue;
    expect(Object.prototype.hasOwnProperty.call(event, name)).toBe(true);
    expect(member).toBe(canonical((event as Record<string, unknown>)[name]));
  }
}

/**
 * Reads `text` strictly with and without the canonical events as stretches the pre-scan steps
 * over, and requires the same outcome, value or error. Returns it.
 */
export function expectSameReading(text: string): ReturnType<typeof parseJsonStrict> {
  return expectSameReadingWith(text, scanCanonicalEvents(text)?.provenSpans());
}

/** expectSameReading with the stretches `spans` (from either pass). */
export function expectSameReadingWith(
  text: string,
  spans: ProvenSpans | undefined,
): ReturnType<typeof parseJsonStrict> {
  const plain = parseJsonStrict(text);
  expect(parseJsonStrictSpans(text, undefined, spans)).toEqual(plain);
  expect(parseJsonStrictSpans(text, { maxDepth: 4 }, spans)).toEqual(
    parseJsonStrict(text, { maxDepth: 4 }),
  );
  return plain;
}
