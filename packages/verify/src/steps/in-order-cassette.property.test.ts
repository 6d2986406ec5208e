// Property: events added one at a time to InOrderCassette give the digests, or the error,
// that cassetteDigestsByReading gives on the whole array, unless they were marked unordered;
// and that they are so marked only when an entry comes more than REORDER_WINDOW entries after
// its place in seq order (docs/spec.md §4.3).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cassetteDigestsByReading } from '@runback/replay-digest';
import { InOrderCassette, REHASH_PER_ENTRY, REORDER_WINDOW } from './in-order-cassette.js';

/** An event of any type the cassette reads or skips, sometimes lacking what its key needs. */
const anEvent = fc.record(
  {
    type: fc.constantFrom('llm', 'tool', 'env', 'run', 'reasoning'),
    seq: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0, max: 6 }) },
      { weight: 1, arbitrary: fc.constantFrom('3', null, -1, 2.5) },
    ),
    model: fc.oneof(fc.constant({ model_id: 'gpt-4o' }), fc.constant({})),
    tool_name: fc.oneof(fc.constant('lookup'), fc.constant(7)),
    kind: fc.constantFrom('clock', 'random', 5),
    key: fc.constantFrom('k1', 'k2'),
    request: fc.jsonValue({ maxDepth: 2 }),
    input: fc.jsonValue({ maxDepth: 2 }),
    response: fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
    output: fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
    error: fc.constantFrom(null, 'timeout', ''),
  },
  { requiredKeys: ['type', 'seq'] },
);

/** What a digest computation ended in: its digests, or the error's code, index and message. */
function outcome(compute: () => unknown): unknown {
  try {
    return { digests: compute() };
  } catch (err) {
    const e = err as { code?: unknown; eventIndex?: unknown; message?: unknown };
    return { code: e.code, eventIndex: e.eventIndex, message: e.message };
  }
}

const seqKey = (e: { seq?: unknown }): number => (typeof e.seq === 'number' ? e.seq : Infinity);

function cassetteOf(events: readonly unknown[]): InOrderCassette {
  const cassette = new InOrderCassette();
  events.forEach((event, index) => cassette.add(event, index));
  return cassette;
}

/**
 * Whether the cassette of `events` was not marked unordered, having checked that it then gives
 * cassetteDigestsByReading's outcome.
 */
function agreesWhenPlaced(events: readonly unknown[]): boolean {
  const cassette = cassetteOf(events);
  if (cassette.unordered) return false;
  expect(outcome(() => cassette.digests())).toEqual(
    outcome(() => cassetteDigestsByReading(events)),
  );
  return true;
}

/** A well-formed env entry with this seq. */
const envAt = (seq: number) => ({ type: 'env', seq, kind: 'clock', key: `k${seq}`, output: seq });

describe('InOrderCassette', () => {
  it('gives cassetteDigestsByReading’s outcome whenever it does not mark the events unordered', () => {
    let checked = 0;
    fc.assert(
      fc.property(fc.array(anEvent, { maxLength: 12 }), fc.boolean(), (events, sort) => {
        // Half the arrays sorted by seq, so that errors in seq order are met too.
        if (sort) events = [...events].sort((a, b) => seqKey(a) - seqKey(b) || 0);
        if (agreesWhenPlaced(events)) checked++;
      }),
      { numRuns: 400 },
    );
    expect(checked).toBeGreaterThan(200);
  });

  it('puts entries back in seq order within its window, and gives up beyond it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 0, max: 199 }),
        fc.integer({ min: 1, max: 2 * REORDER_WINDOW }),
        (count, from, distance) => {
          // Entries in seq order, then one moved `distance` places later than it belongs.
          const events = Array.from({ length: count }, (_, seq) => envAt(seq));
          const at = from % count;
          const to = Math.min(count - 1, at + distance);
          const [moved] = events.splice(at, 1);
          events.splice(to, 0, moved as ReturnType<typeof envAt>);
          const cassette = cassetteOf(events);
          // It is put back in place when the entries it belongs before are all remembered.
          expect(cassette.unordered).toBe(to - at > REORDER_WINDOW);
          if (!cassette.unordered)
            expect(cassette.digests()).toEqual(cassetteDigestsByReading(events));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees on long records whose entries are moved about, some malformed', () => {
    let placed = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(299), fc.integer({ min: -100, max: 100 })), { maxLength: 8 }),
        fc.array(fc.nat(299), { maxLength: 2 }),
        (moves, broken) => {
          const events: object[] = Array.from({ length: 300 }, (_, seq) => envAt(seq));
          for (const at of broken) events[at] = { type: 'env', seq: at, kind: 5, key: 'k' };
          for (const [from, by] of moves) {
            const [event] = events.splice(from, 1);
            events.splice(Math.max(0, Math.min(299, from + by)), 0, event as object);
          }
          if (agreesWhenPlaced(events)) placed++;
        },
      ),
      { numRuns: 200 },
    );
    expect(placed).toBeGreaterThan(50);
  });

  it('leaves runs reversed just inside its window to the sorting walk, rather than rehash them', () => {
    // Each run of REORDER_WINDOW - 4 entries arrives last first: every entry belongs before
    // all those of its run hashed so far, about (REORDER_WINDOW - 4) / 2 rehashes each.
    const run = REORDER_WINDOW - 4;
    expect(run / 2).toBeGreaterThan(REHASH_PER_ENTRY);
    const events = Array.from({ length: 10 * run }, (_, k) => {
      const block = Math.floor(k / run);
      return envAt(block * run + (run - 1 - (k % run)));
    });
    expect(cassetteOf(events).unordered).toBe(true);
  });

  it('keeps to its own walk for the few late entries of concurrent calls', () => {
    // Every tenth entry one place late, and every hundredth ten places late.
    const events = Array.from({ length: 1000 }, (_, seq) => envAt(seq));
    for (let at = 0; at + 1 < events.length; at += 10)
      [events[at], events[at + 1]] = [events[at + 1]!, events[at]!];
    for (let at = 50; at + 10 < events.length; at += 100) {
      const [late] = events.splice(at, 1);
      events.splice(at + 10, 0, late!);
    }
    expect(agreesWhenPlaced(events)).toBe(true);
  });

  it('refuses to give digests once the events were out of seq order', () => {
    const events = Array.from({ length: REORDER_WINDOW + 2 }, (_, k) => envAt(k + 1));
    const cassette = cassetteOf([...events, envAt(0)]);
    expect(cassette.unordered).toBe(true);
    expect(() => cassette.digests()).toThrow(TypeError);
  });
});
