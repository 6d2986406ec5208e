import { computeChain } from '@runback/chain';
import { cassetteDigest } from '@runback/replay-digest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IncrementalSealer } from './sealer.js';

type Event = { readonly seq: number } & Record<string, unknown>;
type Sealed = Event & { readonly _hash: string };

const nowEvent = (seq: number, output: unknown): Event => ({
  seq,
  type: 'env',
  kind: 'now',
  key: 'now',
  output,
});

/** One event of each kind the cassette treats differently (llm, tool, env enter it; run and reasoning do not). */
const eventBody = fc.oneof(
  fc.record({
    type: fc.constant('tool'),
    tool_name: fc.constantFrom('search', 'lookup'),
    input: fc.jsonValue({ maxDepth: 2 }),
    output: fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
    error: fc.constant(null),
  }),
  fc.record({
    type: fc.constant('llm'),
    model: fc.record({ provider: fc.constant('openai'), model_id: fc.constantFrom('m1', 'm2') }),
    request: fc.record({ messages: fc.array(fc.string(), { maxLength: 2 }) }),
    response: fc.oneof(fc.constant(null), fc.record({ text: fc.string() })),
    error: fc.oneof(fc.constant(null), fc.record({ name: fc.constant('E'), message: fc.string() })),
  }),
  fc.record({
    type: fc.constant('env'),
    kind: fc.constantFrom('now', 'random', 'uuid'),
    key: fc.constantFrom('now', 'random', 'uuid'),
    output: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()),
  }),
  fc.record({ type: fc.constant('reasoning'), text: fc.string(), label: fc.constant(null) }),
);

/**
 * Events with seq assigned in start order (0..n-1), a completion order (a permutation), and
 * for each event what happened to it: completed, skipped (its call could not be recorded), or
 * lost (still in flight when the run ended: neither added nor skipped).
 */
const run = fc
  .array(fc.tuple(eventBody, fc.constantFrom('done', 'done', 'done', 'skipped', 'lost')), {
    maxLength: 24,
  })
  .chain((items) =>
    fc.record({
      events: fc.constant(
        items.map(([body, fate], seq) => ({ event: { ...body, seq, run_id: 'r' } as Event, fate })),
      ),
      order: fc.shuffledSubarray(
        items.map((_, i) => i),
        { minLength: items.length, maxLength: items.length },
      ),
    }),
  );

/** Feeds `order` to a sealer as a run would: completed events are added, skipped ones skipped. */
function seal(
  sealer: IncrementalSealer,
  events: readonly { event: Event; fate: string }[],
  order: number[],
) {
  const texts: string[] = [];
  for (const index of order) {
    const { event, fate } = events[index] as { event: Event; fate: string };
    if (fate === 'done') texts.push(sealer.add(event));
    else if (fate === 'skipped') sealer.skip(event.seq);
  }
  return texts;
}

describe('IncrementalSealer', () => {
  it('its digests equal computeChain and cassetteDigest over what it emitted', () => {
    fc.assert(
      fc.property(run, ({ events, order }) => {
        const sealer = new IncrementalSealer();
        const texts = seal(sealer, events, order);
        const emitted = texts.map((text) => JSON.parse(text) as Event);
        const digests = sealer.finish();

        const chain = computeChain(emitted);
        expect(chain.firstMismatch).toBeNull();
        expect(digests.contentDigest).toBe(chain.contentDigest);
        expect(digests.eventCount).toBe(emitted.length);
        const cassette = cassetteDigest(emitted);
        expect(digests.cassetteDigest).toBe(cassette.digest);
        expect(digests.entryCount).toBe(cassette.entryCount);

        // Emitted in completion order, each exactly the event plus _hash, members in canonical order.
        const completed = order.map((i) => events[i]).filter((e) => e?.fate === 'done');
        expect(emitted.map(({ _hash, ...rest }) => rest)).toEqual(
          completed.map((e) => JSON.parse(JSON.stringify(e?.event)) as unknown),
        );
        // Stored with top-level members in canonical order, `_hash` first (docs/spec.md §7).
        for (const event of emitted) expect(Object.keys(event)).toEqual(Object.keys(event).sort());
      }),
      { numRuns: 200 },
    );
  });

  it('continuing a chain from its head and count gives the digest of one sealer', () => {
    fc.assert(
      fc.property(run, fc.nat(), ({ events, order }, cut) => {
        const whole = new IncrementalSealer();
        seal(whole, events, order);
        const expected = whole.finish();

        const split = cut % (order.length + 1);
        const first = new IncrementalSealer();
        seal(first, events, order.slice(0, split));
        const second = new IncrementalSealer({ head: first.head, count: first.eventCount });
        const texts = seal(second, events, order.slice(split));
        const continued = second.finish();

        expect(continued.contentDigest).toBe(expected.contentDigest);
        expect(continued.eventCount).toBe(expected.eventCount);
        // Each continued event is stored exactly as the single sealer stored it (same _hash).
        const wholeTexts = seal(new IncrementalSealer(), events, order);
        expect(texts).toEqual(wholeTexts.slice(wholeTexts.length - texts.length));
      }),
      { numRuns: 100 },
    );
  });

  it('addSealed accepts its own output and digests it the same way', () => {
    fc.assert(
      fc.property(run, ({ events, order }) => {
        const sealer = new IncrementalSealer();
        const emitted = seal(sealer, events, order).map((text) => JSON.parse(text) as Event);
        const expected = sealer.finish();
        const again = new IncrementalSealer();
        for (const event of emitted) expect(again.addSealed(event)).toBe(true);
        expect(again.finish()).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('addSealed returns false for an altered _hash or altered content', () => {
    const sealer = new IncrementalSealer();
    const texts = [0, 1, 2].map((seq) => sealer.add(nowEvent(seq, seq)));
    const [a, b, c] = texts.map((text) => JSON.parse(text)) as [Sealed, Sealed, Sealed];

    const flipped = new IncrementalSealer();
    expect(flipped.addSealed(a)).toBe(true);
    const altered = b._hash.slice(0, -1) + (b._hash.endsWith('0') ? '1' : '0');
    expect(flipped.addSealed({ ...b, _hash: altered })).toBe(false);

    const edited = new IncrementalSealer();
    expect(edited.addSealed(a)).toBe(true);
    const changed: Sealed = { ...b, output: 99 };
    expect(edited.addSealed(changed)).toBe(false);

    const reordered = new IncrementalSealer();
    expect(reordered.addSealed(a)).toBe(true);
    expect(reordered.addSealed(c)).toBe(false);

    const intact = new IncrementalSealer();
    expect([a, b, c].map((event) => intact.addSealed(event))).toEqual([true, true, true]);
  });

  it('holds an event back until every smaller seq has arrived or been skipped', () => {
    // seq 1 completes first; seq 0 is skipped later. The cassette must still be in seq order.
    const tool = (seq: number, output: number) => ({
      seq,
      type: 'tool',
      tool_name: 't',
      input: seq,
      output,
      error: null,
    });
    const sealer = new IncrementalSealer();
    const emitted = [sealer.add(tool(2, 20)), sealer.add(tool(1, 10))].map(
      (t) => JSON.parse(t) as Event,
    );
    sealer.skip(0);
    const digests = sealer.finish();
    expect(digests.cassetteDigest).toBe(cassetteDigest(emitted).digest);
    // Completion order would give another digest: the order matters and seq order was used.
    const inCompletionOrder = emitted.map((event, index) => ({ ...event, seq: index }));
    expect(digests.cassetteDigest).not.toBe(cassetteDigest(inCompletionOrder).digest);
    expect(digests.entryCount).toBe(2);
  });

  it('starts at firstSeq', () => {
    const sealer = new IncrementalSealer({ firstSeq: 5 });
    const text = sealer.add(nowEvent(5, 1));
    sealer.add(nowEvent(6, 2));
    expect(sealer.eventCount).toBe(2);
    expect(sealer.head).not.toBe('');
    const emitted = [JSON.parse(text)] as Event[];
    expect(computeChain(emitted).contentDigest).toBe(JSON.parse(text)._hash);
    expect(sealer.finish().entryCount).toBe(2);
  });
});
