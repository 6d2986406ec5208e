// Property: NameSlots.slotOf and sameSpans give the same answer reading an ASCII text's bytes
// four at a time (at any alignment of the bytes) as reading its code units one at a time,
// and that answer is the plain one: the slot of the name written there, whether two
// stretches are equal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameSlots, sameSpans } from './span-words.js';

const NAMES = ['seq', 'key', 'type', 'kind', 'run_id', 'ts_end', 'ts_start', 'schema_version'];
const SLOTS = new NameSlots(NAMES);

/** The bytes of an ASCII text `offset` bytes into a larger buffer, as a DataView. */
function bytesAt(s: string, offset: number): DataView {
  const buffer = new Uint8Array(offset + s.length + 3).fill(0x22);
  for (let i = 0; i < s.length; i++) buffer[offset + i] = s.charCodeAt(i);
  return new DataView(buffer.buffer, offset, s.length);
}

/** Names close to NAMES: each, a prefix, one letter changed, one letter more. */
const nameLike = fc.oneof(
  fc.constantFrom(...NAMES),
  fc
    .tuple(fc.constantFrom(...NAMES), fc.nat(), fc.constantFrom('a', 'e', '_', 'y', '"'))
    .map(([name, at, c]) => {
      const i = at % name.length;
      return [name.slice(0, i) + c + name.slice(i + 1), name.slice(0, i), name + c][
        at % 3
      ] as string;
    }),
  fc.string({ unit: fc.constantFrom('s', 'e', 'q', 'k', 'y', '_', 't'), maxLength: 15 }),
);

describe('span words', () => {
  it('match a name written before its closing quote to its slot, read either way', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), nameLike, fc.nat(7), (before, name, offset) => {
        const ascii = before.replace(/[^\x20-\x7e]/g, 'x');
        const text = `${ascii}"${name}":1`;
        const s = ascii.length + 1;
        const e = s + name.length;
        // A name span never holds its closing quote; one that would is not a name.
        if (name.includes('"')) return;
        const expected = NAMES.indexOf(name);
        expect(SLOTS.slotOf(text, undefined, s, e)).toBe(expected);
        expect(SLOTS.slotOf(text, bytesAt(text, offset), s, e)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('match every name of a list large enough that names share buckets, and no other', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ unit: fc.constantFrom('a', 'b', '_', 'e'), minLength: 3, maxLength: 9 }),
          {
            minLength: 1,
            maxLength: 200,
          },
        ),
        fc.string({ unit: fc.constantFrom('a', 'b', '_', 'e'), maxLength: 10 }),
        fc.nat(7),
        (names, other, offset) => {
          const slots = new NameSlots(names);
          for (const name of [...names, other]) {
            const text = `{"${name}":1}`;
            const expected = names.indexOf(name);
            expect(slots.slotOf(text, undefined, 2, 2 + name.length)).toBe(expected);
            expect(slots.slotOf(text, bytesAt(text, offset), 2, 2 + name.length)).toBe(expected);
          }
          // Read from code units, a name with one past ASCII (whose low byte is a listed
          // name's, so that its first word may be one) matches none.
          for (const name of names) {
            const i = offset % name.length;
            const changed =
              name.slice(0, i) +
              String.fromCharCode(name.charCodeAt(i) + 0x100) +
              name.slice(i + 1);
            const text = `{"${changed}":1}`;
            expect(slots.slotOf(text, undefined, 2, 2 + changed.length)).toBe(-1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('compare two stretches of a text, read either way', () => {
    const unit = fc.constantFrom('a', 'b', '0', '"', '\\');
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 40 }),
        fc.option(fc.tuple(fc.nat(), unit)),
        fc.string({ unit, maxLength: 5 }),
        fc.string({ unit, maxLength: 5 }),
        fc.nat(7),
        (span, change, before, between, offset) => {
          // The span and a copy of it, one character changed or not.
          let copy = span;
          if (change !== null && span.length > 0) {
            const i = change[0] % span.length;
            copy = span.slice(0, i) + change[1] + span.slice(i + 1);
          }
          const text = before + span + between + copy + before;
          const a = before.length;
          const b = a + span.length + between.length;
          const expected = span === copy;
          expect(sameSpans(text, undefined, a, b, span.length)).toBe(expected);
          expect(sameSpans(text, bytesAt(text, offset), a, b, span.length)).toBe(expected);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
