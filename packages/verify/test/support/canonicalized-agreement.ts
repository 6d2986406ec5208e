// The one property the canonicalizing pass must hold: whatever canonical text and chain hash
// it computes from the input is exactly what the general path computes from the parsed value
// (docs/spec.md §2, §3, §4.3), and it offers every object event of a text the reader accepts.
import { canonicalWithout, sha256Hex } from '@runback/canonical';
import { expect } from 'vitest';
import type { parseJsonStrict } from '../../src/json/index.js';
import {
  expectedEvents,
  expectMemberAgreement,
  expectSameReadingWith,
  knownFor,
} from './fast-path-agreement.js';
import { canonicalizeEvents } from '../../src/fast-path/canonicalized-events.js';

/**
 * Reads `text` strictly and checks every event text, chain hash and member text the fast path
 * offers against canonicalWithout / sha256 / canonical of the parsed value. Returns how many events it offered
 * (so tests can require the fast path to be taken), or -1 when the text has no events array.
 */
export function expectCanonicalizedAgreement(text: string): number {
  const events = expectedEvents(expectSameCanonicalizedReading(text));
  if (events === null) return -1;
  const known = knownFor(canonicalizeEvents(text), events);
  let offered = 0;
  // The chain recomputed from the parsed events, while every event is an object.
  let head: string | null = '';
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const fast = known?.eventText(i);
    const isObject = event !== null && typeof event === 'object' && !Array.isArray(event);
    const expected = isObject ? canonicalWithout(event, '_hash') : undefined;
    if (fast !== undefined) {
      offered++;
      expect(fast).toBe(expected);
    }
    // Every object event of a text the strict reader accepts is offered, hash included.
    if (known !== null) expect(fast !== undefined).toBe(isObject);
    if (head !== null && expected !== undefined) {
      const hash = sha256Hex(head + expected);
      if (known !== null) expect(known.eventHash(i, head)).toBe(hash);
      head = hash;
    } else {
      head = null;
    }
    expectMemberAgreement(known, i, event);
  }
  return offered;
}

/**
 * Reads `text` strictly with and without the canonical events as stretches the pre-scan steps
 * over, and requires the same outcome, value or error. Returns it.
 */
export function expectSameCanonicalizedReading(text: string): ReturnType<typeof parseJsonStrict> {
  return expectSameReadingWith(text, canonicalizeEvents(text)?.provenSpans());
}
