// Property: verifyJson's canonical reading, which hands the steps one event at a time and
// falls back to the whole events array when the cassette must sort them, gives exactly the
// plain reading's result on records whose events are moved, renumbered or stripped of what
// their oracle key is made of (docs/spec.md §4.3, §5), in any member order. Escapes and odd
// whitespace are rare here (rate), since an escaped "events" name sends the whole text to the
// general path, which would leave the reading under test unexercised.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sealRecord } from '@runback/sign';
import { GENERATED_AT, KEYS, loanRun, PEM, sealedLoanRecord } from '../test/support/fixtures.js';
import { randomOf, shuffled, treeFromValue, writeJson } from '../test/support/json-writer.js';
import { verifyJsonWith } from './verify.js';
import { REORDER_WINDOW } from './steps/in-order-cassette.js';

type Event = Record<string, unknown>;

/** One change to the events array of a sealed record. */
type Change =
  | { readonly move: number; readonly to: number }
  | { readonly at: number; readonly seq: unknown }
  | { readonly at: number; readonly strip: string };

const aChange: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ move: fc.nat(), to: fc.nat() }),
  fc.record({
    at: fc.nat(),
    seq: fc.oneof(fc.integer({ min: -1, max: 8 }), fc.constantFrom('2', null, 1.5)),
  }),
  fc.record({ at: fc.nat(), strip: fc.constantFrom('model', 'tool_name', 'kind', 'key', 'seq') }),
);

function applied(events: Event[], change: Change): void {
  const n = events.length;
  if ('move' in change) {
    const [event] = events.splice(change.move % n, 1);
    if (event !== undefined) events.splice(change.to % n, 0, event);
    return;
  }
  const event = events[change.at % n];
  if (event === undefined) return;
  if ('strip' in change) delete event[change.strip];
  else event['seq'] = change.seq;
}

describe('verifyJson, event by event', () => {
  it('gives the plain reading’s result on records with events moved, renumbered or stripped', () => {
    const sealed = JSON.parse(JSON.stringify(sealedLoanRecord())) as { events: Event[] };
    const trust = { pinned: [PEM.current] };
    const verdicts = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(aChange, { maxLength: 3 }),
        fc.constantFrom(0, 0.002),
        fc.gen(),
        (changes, rate, g) => {
          const record = structuredClone(sealed);
          for (const change of changes) applied(record.events, change);
          const random = randomOf(g);
          const text = writeJson(shuffled(treeFromValue(record), random), rate, random);
          const canonical = verifyJsonWith(text, trust, 'canonical');
          expect(canonical).toEqual(verifyJsonWith(text, trust, 'plain'));
          verdicts.add(`${canonical.verdict} ${canonical.checks.cassette}`);
        },
      ),
      { numRuns: 150 },
    );
    // Both outcomes of the cassette check were met, on valid and on broken records.
    expect(verdicts).toContain('valid true');
    expect(verdicts).toContain('invalid false');
    expect(verdicts).toContain('invalid true');
  });

  it('gives the plain reading’s result when events are moved further than the cassette’s window', () => {
    // The loan run with three window's worth of clock reads after its tool call, renumbered.
    const { run, events } = loanRun();
    const clock = events.find((e) => e['type'] === 'env') as Event;
    const reads = Array.from({ length: 3 * REORDER_WINDOW }, (_, k): Event => ({
      ...clock,
      span_id: `e${k + 2}`,
      output: 1781405232601 + k,
    }));
    const all = [...events.slice(0, 3), ...reads, ...events.slice(3)];
    all.forEach((event, seq) => (event['seq'] = seq));
    const sealed = JSON.parse(
      JSON.stringify(
        sealRecord(
          { run, events: all },
          {
            generatedAt: GENERATED_AT,
            signer: { alg: 'Ed25519', privateKey: KEYS.current.privateKey },
          },
        ),
      ),
    ) as { events: Event[] };
    const trust = { pinned: [PEM.current] };
    expect(verifyJsonWith(JSON.stringify(sealed), trust, 'canonical').verdict).toBe('valid');
    fc.assert(
      fc.property(
        fc.nat(sealed.events.length - 1),
        fc.nat(sealed.events.length - 1),
        (from, to) => {
          const record = structuredClone(sealed);
          const [event] = record.events.splice(from, 1);
          record.events.splice(to, 0, event as Event);
          const text = JSON.stringify(record);
          const canonical = verifyJsonWith(text, trust, 'canonical');
          expect(canonical).toEqual(verifyJsonWith(text, trust, 'plain'));
          // Moving an event changes the chain, never the cassette: it is hashed in seq order.
          expect(canonical.checks.cassette).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});
