// Property: StreamCassette's reorder buffer (a heap) ends as the plain reading of its rule,
// written below with a sorted list, ends: every entry held unhashed until more than the budget
// is held, then let go and hashed in seq order; an entry that sorts before one let go cannot be
// placed. The same digests, the same error (the first malformed entry in seq order, even when
// several are let go at once), and the order error for exactly the same arrivals, whatever the
// order, sizes and budget (docs/spec.md §4.3). With no budget limit that is
// cassetteDigestsByReading's outcome on the whole array.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cassetteDigestsByReading, type EntryTexts } from '@runback/replay-digest';
import { ReadingChains } from '../steps/reading-chains.js';
import { entryTextsAt, seqKey } from '../steps/oracle-entry-texts.js';
import { StreamCassette, StreamOrderError } from './stream-cassette.js';

interface Held {
  readonly seq: number;
  readonly index: number;
  readonly texts: EntryTexts | null;
  readonly error: Error | null;
  readonly size: number;
}

/** Whether (seq, index) sorts before (otherSeq, otherIndex): the stable seq sort's order. */
const sortsBefore = (seq: number, index: number, otherSeq: number, otherIndex: number) =>
  seq === otherSeq ? index < otherIndex : seq < otherSeq;

/** Every entry held unhashed, in seq order, until more than `budget` characters are held. */
function reference(events: readonly unknown[], budget: number): () => unknown {
  const pending: Held[] = [];
  const chains = new ReadingChains();
  let held = 0;
  let last: Held | null = null;
  let error: Error | null = null;
  let unordered = false;
  const letGo = () => {
    const entry = pending.shift() as Held;
    held -= entry.size;
    last = entry;
    if (error !== null) return;
    if (entry.error !== null) error = entry.error;
    else chains.add(entry.texts!.published, entry.texts!.seed);
  };
  events.forEach((event, index) => {
    if (error !== null || unordered) return;
    const read = entryTextsAt(event, index, undefined);
    if (read === null) return;
    const seq = seqKey(event);
    if (last !== null && sortsBefore(seq, index, last.seq, last.index)) {
      unordered = true;
      return;
    }
    const texts = read instanceof Error ? null : read;
    const size =
      texts === null
        ? 0
        : texts.published.length + (texts.seed === texts.published ? 0 : texts.seed.length);
    const entry = { seq, index, texts, error: read instanceof Error ? read : null, size };
    let at = pending.length;
    while (at > 0 && sortsBefore(seq, index, pending[at - 1]!.seq, pending[at - 1]!.index)) at--;
    pending.splice(at, 0, entry);
    held += size;
    while (held > budget && pending.length > 0) letGo();
  });
  return () => {
    while (pending.length > 0 && error === null && !unordered) letGo();
    if (unordered) throw new StreamOrderError('out of order');
    if (error !== null) throw error;
    return chains.digests();
  };
}

/** What a digest computation ended in: its digests, or the error's kind, code and index. */
function outcome(compute: () => unknown): unknown {
  try {
    return { digests: compute() };
  } catch (err) {
    const e = err as { code?: unknown; eventIndex?: unknown; message?: unknown };
    const ordered = !(err instanceof StreamOrderError);
    return { code: e.code, eventIndex: e.eventIndex, message: ordered ? e.message : '' };
  }
}

function streamed(events: readonly unknown[], budget: number): () => unknown {
  const cassette = new StreamCassette(budget);
  events.forEach((event, index) => cassette.add(event, index));
  return () => cassette.digests();
}

/**
 * Env entries with seqs 0..count-1 whose outputs vary in length, moved about, some malformed
 * (kind 5), some not oracle events, a few with a repeated or missing seq.
 */
const aRecord = fc
  .record({
    count: fc.integer({ min: 0, max: 60 }),
    lengths: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 60, maxLength: 60 }),
    moves: fc.array(fc.tuple(fc.nat(59), fc.integer({ min: -30, max: 30 })), { maxLength: 8 }),
    broken: fc.array(fc.nat(59), { maxLength: 2 }),
    skipped: fc.array(fc.nat(59), { maxLength: 3 }),
    odd: fc.array(fc.tuple(fc.nat(59), fc.constantFrom(0, 7, null)), { maxLength: 2 }),
  })
  .map(({ count, lengths, moves, broken, skipped, odd }) => {
    const events: object[] = Array.from({ length: count }, (_, seq) => ({
      type: 'env',
      seq,
      kind: 'clock',
      key: `k${seq}`,
      output: 'x'.repeat(lengths[seq] as number),
    }));
    if (count === 0) return events;
    for (const at of broken) events[at % count] = { type: 'env', seq: at % count, kind: 5 };
    for (const at of skipped) events[at % count] = { type: 'reasoning', seq: at % count };
    for (const [at, seq] of odd) events[at % count] = { ...events[at % count], seq };
    for (const [from, by] of moves) {
      const [event] = events.splice(from % count, 1);
      events.splice(Math.max(0, Math.min(count - 1, (from % count) + by)), 0, event as object);
    }
    return events;
  });

const aBudget = fc.oneof(fc.integer({ min: 0, max: 400 }), fc.constant(Infinity), fc.constant(0));

describe('StreamCassette', () => {
  it('ends as the plain reading of its rule ends', () => {
    let placed = 0;
    let refused = 0;
    fc.assert(
      fc.property(aRecord, aBudget, (events, budget) => {
        const expected = outcome(reference(events, budget));
        expect(outcome(streamed(events, budget))).toEqual(expected);
        if ((expected as { digests?: unknown }).digests !== undefined) placed++;
        else if ((expected as { code?: unknown }).code === 'CASSETTE_OUT_OF_ORDER') refused++;
      }),
      { numRuns: 600 },
    );
    // Both kinds of ending were met, not only one.
    expect(placed).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(20);
  });

  it('with no budget limit, gives cassetteDigestsByReading’s outcome on the whole array', () => {
    fc.assert(
      fc.property(aRecord, (events) => {
        expect(outcome(streamed(events, Infinity))).toEqual(
          outcome(() => cassetteDigestsByReading(events)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('puts back in place an entry that arrives after many later ones, within its budget', () => {
    const env = (seq: number) => ({ type: 'env', seq, kind: 'clock', key: 'k', output: seq });
    const events = [...Array.from({ length: 500 }, (_, k) => env(k + 1)), env(0), env(501)];
    expect(streamed(events, Infinity)()).toEqual(cassetteDigestsByReading(events));
    expect(() => streamed(events, 100)()).toThrow(StreamOrderError);
  });
});
