// Property: on any text of any record, every canonical text the fast paths take from the input
// (the proving pass and the canonicalizing pass) equals what the general path computes from the
// parsed value (docs/spec.md §2), and records written canonically take the fast path for every
// event.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  expectCanonicalizedAgreement,
  expectSameCanonicalizedReading,
} from '../../test/support/canonicalized-agreement.js';
import {
  expectAgreement as expectProvenAgreement,
  expectSameReading as expectSameProvenReading,
} from '../../test/support/fast-path-agreement.js';

/** Both passes over the text agree with the general path; the proving pass's offer count. */
function expectAgreement(text: string): number {
  expectCanonicalizedAgreement(text);
  return expectProvenAgreement(text);
}

/** Both passes leave the strict reader's result as it is without them. */
function expectSameReading(text: string): void {
  expectSameCanonicalizedReading(text);
  expectSameProvenReading(text);
}
import {
  anyString,
  eventOf,
  storedForm,
  treeOf,
  numbers,
  randomOf,
  trickyChar,
  wellFormedString,
  writeJson,
  writeNumber,
  writeString,
  type Tree,
} from '../../test/support/json-writer.js';

/** A record tree: other members around an events array of `events`. */
function recordOf(events: fc.Arbitrary<Tree>): fc.Arbitrary<Tree> {
  return fc
    .tuple(fc.array(events, { maxLength: 6 }), treeOf(wellFormedString, 2))
    .map(([items, other]) => ({
      kind: 'object',
      members: [
        ['manifest', other],
        ['events', { kind: 'array', items }],
      ],
    }));
}

/** Events as writers store them, or anything at all in their place. */
const looseEvent = fc.oneof(eventOf(anyString), treeOf(anyString, 3));

describe('fast path agreement', () => {
  it('agrees with the general path on every text of any record', () => {
    fc.assert(
      fc.property(
        recordOf(looseEvent),
        fc.constantFrom(0, 0.02, 0.1, 0.5),
        fc.gen(),
        (record, rate, g) => {
          expectAgreement(writeJson(record, rate, randomOf(g)));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('takes the fast path for every event of a record written canonically', () => {
    fc.assert(
      fc.property(fc.array(eventOf(wellFormedString), { maxLength: 6 }), (events) => {
        const items = events.map((event) => storedForm(event));
        const record: Tree = { kind: 'object', members: [['events', { kind: 'array', items }]] };
        expect(expectAgreement(writeJson(record, 0, () => 0))).toBe(items.length);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees on every escape of every character of a string value and of a member name', () => {
    const strings = fc.oneof(
      fc.string({ unit: trickyChar, maxLength: 4 }),
      fc.string({ unit: fc.nat(0xffff).map((c) => String.fromCharCode(c)), maxLength: 2 }),
    );
    fc.assert(
      fc.property(strings, fc.constantFrom(0.2, 0.6, 1), fc.gen(), (s, rate, g) => {
        const value = writeString(s, rate, randomOf(g));
        expectAgreement(`{"events":[{"_hash":"h","s":${value}},{"_hash":${value}}]}`);
        expectAgreement(`{"events":[{"_hash":"h",${value}:1}]}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees on every form of every number', () => {
    fc.assert(
      fc.property(numbers, fc.gen(), (n, g) => {
        expectAgreement(`{"events":[{"_hash":"h","n":${writeNumber(n, randomOf(g))},"o":[-1]}]}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads any text as the strict reader does without the scan, valid or not', () => {
    const edit = fc.tuple(
      fc.nat(),
      fc.nat(3),
      fc.constantFrom('"', '\\', '{', '}', '[', ']', ',', ':', '1', 'e', '-', ' ', 'u', '"a":1,'),
    );
    fc.assert(
      fc.property(
        fc.array(eventOf(wellFormedString), { minLength: 1, maxLength: 4 }),
        fc.array(edit, { maxLength: 3 }),
        (events, edits) => {
          const items = events.map((event) => storedForm(event));
          let text = writeJson(
            { kind: 'object', members: [['events', { kind: 'array', items }]] },
            0,
            () => 0,
          );
          for (const [at, remove, insert] of edits) {
            const i = 11 + (at % Math.max(1, text.length - 12));
            text = text.slice(0, i) + insert + text.slice(i + remove);
          }
          expectSameReading(text);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
