// Property: events added one at a time to InOrderCassette give the digests, or the error,
// that cassetteDigestsByReading gives on the whole array when the array is in seq order, and
// are marked unordered when it is not (docs/spec.md §4.3).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cassetteDigestsByReading } from '@runback/replay-digest';
import { InOrderCassette } from './in-order-cassette.js';

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

function inSeqOrder(events: readonly { seq?: unknown }[]): boolean {
  const key = (e: { seq?: unknown }) => (typeof e.seq === 'number' ? e.seq : Infinity);
  return events.every((e, i) => i === 0 || key(e) >= key(events[i - 1] as { seq?: unknown }));
}

describe('InOrderCassette', () => {
  it('agrees with cassetteDigestsByReading on events in seq order, and flags any other order', () => {
    let ordered = 0;
    fc.assert(
      fc.property(fc.array(anEvent, { maxLength: 12 }), fc.boolean(), (events, sort) => {
        // Half the arrays sorted by seq, so that both sides of the property are reached.
        if (sort) {
          const key = (e: { seq?: unknown }) => (typeof e.seq === 'number' ? e.seq : Infinity);
          events = [...events].sort((a, b) => key(a) - key(b) || 0);
        }
        const cassette = new InOrderCassette();
        events.forEach((event, index) => cassette.add(event, index));
        if (!inSeqOrder(events)) {
          expect(cassette.unordered).toBe(true);
          return;
        }
        ordered++;
        expect(cassette.unordered).toBe(false);
        expect(outcome(() => cassette.digests())).toEqual(
          outcome(() => cassetteDigestsByReading(events)),
        );
      }),
      { numRuns: 400 },
    );
    expect(ordered).toBeGreaterThan(100);
  });

  it('refuses to give digests once the events were out of seq order', () => {
    const cassette = new InOrderCassette();
    cassette.add({ type: 'env', seq: 2, kind: 'clock', key: 'k', output: 1 }, 0);
    cassette.add({ type: 'env', seq: 1, kind: 'clock', key: 'k', output: 1 }, 1);
    expect(cassette.unordered).toBe(true);
    expect(() => cassette.digests()).toThrow(TypeError);
  });
});
