// The cassette walks the events in seq order (docs/spec.md §4.3): in array order while that is
// seq order, else sorted. Both walks must give the digests and the errors of the sorted one.
import { canonical, sha256Hex } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cassetteDigest, cassetteDigestsByReading, seqOrder } from './cassette.js';
import { ReplayDigestError } from './errors.js';
import { oracleEntryOf } from './oracle-entry.js';

/** Events of every kind, with seqs that may repeat, be missing or not be numbers. */
const event = fc.record(
  {
    seq: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(Number.NaN), fc.constant('1')),
    type: fc.constantFrom('llm', 'tool', 'env', 'run', 'reasoning'),
    model: fc.constant({ model_id: 'm' }),
    tool_name: fc.constant('t'),
    kind: fc.constant('random'),
    key: fc.constant('random'),
    request: fc.jsonValue({ maxDepth: 1 }),
    input: fc.jsonValue({ maxDepth: 1 }),
    response: fc.jsonValue({ maxDepth: 1 }),
    output: fc.jsonValue({ maxDepth: 1 }),
    error: fc.oneof(fc.constant(null), fc.constant({ name: 'E', message: 'x' })),
  },
  { requiredKeys: ['type', 'model', 'tool_name', 'kind', 'key'] },
);

/** The digest chained over the events sorted by seqOrder, entry by entry. */
function sortedDigest(events: readonly unknown[], reading: 'published' | 'seed'): string {
  let head = '';
  for (const index of seqOrder(events)) {
    const entry = oracleEntryOf(events[index], reading);
    if (entry !== null) head = sha256Hex(head + canonical(entry));
  }
  return head;
}

describe('the cassette order', () => {
  it('property: gives the digests of the sorted events, in any array order', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), (events) => {
        const entries = events.filter((e) => oracleEntryOf(e) !== null).length;
        const digest = (reading: 'published' | 'seed'): string =>
          entries === 0 ? sha256Hex('') : sortedDigest(events, reading);
        expect(cassetteDigest(events)).toEqual({
          digest: digest('published'),
          entryCount: entries,
        });
        expect(cassetteDigest(events, undefined, 'seed').digest).toBe(digest('seed'));
        const both = cassetteDigestsByReading(events);
        expect([both.published.digest, both.seed.digest]).toEqual([
          digest('published'),
          digest('seed'),
        ]);
      }),
      { numRuns: 300 },
    );
  });

  it('reports the malformed event seq order meets first, wherever the array has it', () => {
    const events = [
      { seq: 3, type: 'tool' },
      { seq: 0, type: 'run' },
      { seq: 1, type: 'llm', model: {} },
    ];
    for (const digest of [() => cassetteDigest(events), () => cassetteDigestsByReading(events)]) {
      try {
        digest();
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(ReplayDigestError);
        expect((err as ReplayDigestError).eventIndex).toBe(2);
        expect((err as ReplayDigestError).message).toMatch(/model.model_id/);
      }
    }
  });
});
