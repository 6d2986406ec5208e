// Property: ControlFinder.has, ControlFinder.next and nextControl find a raw control character (U+0000 to
// U+001F, RFC 8259 §7) exactly where a plain search finds one, in any stretch of any text,
// read four bytes at a time from an ASCII text's bytes at any alignment, or code unit by
// code unit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ControlFinder, nextControl } from './control-characters.js';

/** Texts mostly of printable characters, with a control character here and there. */
const text = (ascii: boolean) =>
  fc.string({
    unit: fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('a', ' ', '"', '\\', '~', '\u007f') },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
      },
      ...(ascii ? [] : [{ weight: 2, arbitrary: fc.constantFrom('é', '😀', '\u2028', '\u0120') }]),
    ),
    maxLength: 80,
  });

/** The bytes of an ASCII text, placed `offset` bytes into a larger buffer. */
function bytesAt(s: string, offset: number): Uint8Array {
  const buffer = new Uint8Array(offset + s.length + 5).fill(0x01);
  for (let i = 0; i < s.length; i++) buffer[offset + i] = s.charCodeAt(i);
  return buffer.subarray(offset, offset + s.length);
}

// eslint-disable-next-line no-control-regex -- the plain search for control characters
const CONTROL = /[\u0000-\u001f]/;

const plain = (s: string, from: number, to: number): boolean => CONTROL.test(s.slice(from, to));

describe('control characters', () => {
  it('are found in any stretch of an ASCII text read as bytes at any alignment', () => {
    fc.assert(
      fc.property(text(true), fc.nat(7), fc.nat(), fc.nat(), (s, offset, a, b) => {
        const from = s.length === 0 ? 0 : a % (s.length + 1);
        const to = from + (s.length === 0 ? 0 : b % (s.length - from + 1));
        const bytes = new ControlFinder(s, bytesAt(s, offset));
        const units = new ControlFinder(s, undefined);
        expect(bytes.has(from, to)).toBe(plain(s, from, to));
        expect(units.has(from, to)).toBe(plain(s, from, to));
      }),
      { numRuns: 5000 },
    );
  });

  it('are found from any position of an ASCII text read as bytes at any alignment', () => {
    // Long enough for blocks of whole words, the control characters far apart or close.
    const long = fc
      .tuple(text(true), fc.nat(400), text(true))
      .map(([a, n, b]) => a + 'x'.repeat(n) + b);
    fc.assert(
      fc.property(long, fc.nat(7), fc.nat(), (s, offset, a) => {
        const from = a % (s.length + 1);
        const found = s.slice(from).search(CONTROL);
        const expected = found < 0 ? s.length : from + found;
        expect(new ControlFinder(s, bytesAt(s, offset)).next(from)).toBe(expected);
        expect(new ControlFinder(s, undefined).next(from)).toBe(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('are found in any stretch of any text read as code units', () => {
    fc.assert(
      fc.property(text(false), fc.nat(), fc.nat(), (s, a, b) => {
        const from = s.length === 0 ? 0 : a % (s.length + 1);
        const to = from + (s.length === 0 ? 0 : b % (s.length - from + 1));
        // Bytes that are not the text's code units one for one are not read.
        const finder = new ControlFinder(s, new TextEncoder().encode(s));
        expect(finder.has(from, to)).toBe(plain(s, from, to));
        const found = s.slice(from).search(CONTROL);
        expect(nextControl(s, from)).toBe(found < 0 ? s.length : from + found);
      }),
      { numRuns: 5000 },
    );
  });

  it('are counted in any stretch of any text, from its bytes at any alignment or its units', () => {
    // Long enough for several rounds of byte-lane counting (127 words each).
    const long = (ascii: boolean) =>
      fc
        .tuple(text(ascii), fc.nat(1200), text(ascii), fc.nat(3))
        .map(([a, n, b, c]) => a + ['x', '\n', '\u0001 ', '\u007f'][c]!.repeat(n) + b);
    const plainCount = (s: string, from: number, to: number): number =>
      s
        .slice(from, to)
        .split('')
        .filter((c) => c.charCodeAt(0) < 0x20).length;
    fc.assert(
      fc.property(long(true), fc.nat(7), fc.nat(), fc.nat(), (s, offset, a, b) => {
        const from = a % (s.length + 1);
        const to = from + (b % (s.length - from + 1));
        const expected = plainCount(s, from, to);
        expect(new ControlFinder(s, bytesAt(s, offset)).count(from, to)).toBe(expected);
        expect(new ControlFinder(s, undefined).count(from, to)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(long(false), fc.nat(), fc.nat(), (s, a, b) => {
        const from = a % (s.length + 1);
        const to = from + (b % (s.length - from + 1));
        const finder = new ControlFinder(s, new TextEncoder().encode(s));
        expect(finder.count(from, to)).toBe(plainCount(s, from, to));
      }),
      { numRuns: 1000 },
    );
  });

  it('are counted in a stretch made of nothing else, every lane full', () => {
    const s = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(i % 0x20)).join('');
    for (let offset = 0; offset < 4; offset++) {
      const finder = new ControlFinder(s, bytesAt(s, offset));
      expect(finder.count(0, s.length)).toBe(s.length);
      expect(finder.count(3, s.length - 5)).toBe(s.length - 8);
    }
  });

  it('are found in every position of a long stretch, whole words included', () => {
    const s = 'x'.repeat(300);
    for (let at = 0; at < s.length; at++) {
      const marked = s.slice(0, at) + '\u001f' + s.slice(at + 1);
      for (let offset = 0; offset < 4; offset++) {
        const finder = new ControlFinder(marked, bytesAt(marked, offset));
        expect(finder.has(0, marked.length)).toBe(true);
        expect(finder.has(0, at)).toBe(false);
        expect(finder.has(at + 1, marked.length)).toBe(false);
        expect(finder.has(at, at + 1)).toBe(true);
        expect(finder.next(0)).toBe(at);
        expect(finder.next(at + 1)).toBe(marked.length);
      }
    }
  });
});
