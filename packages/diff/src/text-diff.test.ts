import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffText, type TextSegment } from './text-diff.js';

/** The text of one side, from segments with nothing elided. */
const side = (segments: readonly TextSegment[], which: 'removed' | 'added') =>
  segments
    .map((s) => {
      if (s.kind === 'elided') throw new Error('elided segment in a full diff');
      return s.kind === 'same' || s.kind === which ? s.text : '';
    })
    .join('');

const FULL = { context: 1e9, maxChanged: 1e9 };

/** No lone surrogate: a pair cut in two would show as a replacement character. */
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);

describe('diffText', () => {
  it('shows a change at the 200th character of a long prompt with its words around it', () => {
    const prompt =
      'You are a careful loan officer. '.repeat(6) +
      'Approve only when the income is verified and the score is above 640. ' +
      'Explain the decision in one sentence. '.repeat(20);
    const changed = prompt.replace('above 640', 'above 600');
    expect(prompt.indexOf('640')).toBeGreaterThan(199);
    const d = diffText(prompt, changed);
    expect(d.firstChange).toBe(prompt.indexOf('640') + 1);
    expect(d.regions).toBe(1);
    expect(d.segments).toEqual([
      { kind: 'elided', of: 'same', length: expect.any(Number) },
      { kind: 'same', text: expect.stringMatching(/verified and the score is above $/) },
      { kind: 'removed', text: '640' },
      { kind: 'added', text: '600' },
      { kind: 'same', text: expect.stringMatching(/^\. Explain/) },
      { kind: 'elided', of: 'same', length: expect.any(Number) },
    ]);
    const shown = d.segments.filter((s) => s.kind === 'same');
    for (const s of shown) expect(s.kind === 'same' && s.text.length).toBeLessThanOrEqual(40);
  });

  it('diffs whole words, not letters, in prose', () => {
    const d = diffText('the income is verified today', 'the income must be verified today', FULL);
    expect(d.segments).toEqual([
      { kind: 'same', text: 'the income ' },
      { kind: 'removed', text: 'is' },
      { kind: 'added', text: 'must be' },
      { kind: 'same', text: ' verified today' },
    ]);
  });

  it('falls back to characters inside one very long token', () => {
    const token = 'A'.repeat(3000);
    const d = diffText(`${token}x${token}`, `${token}y${token}`);
    expect(d.segments.filter((s) => s.kind === 'removed' || s.kind === 'added')).toEqual([
      { kind: 'removed', text: 'x' },
      { kind: 'added', text: 'y' },
    ]);
    expect(d.firstChange).toBe(3000);
  });

  it('keeps separate regions apart with the unchanged text between them elided', () => {
    const filler = ' and then nothing changes for a long while here'.repeat(5);
    const d = diffText(`alpha${filler} omega`, `beta${filler} psi`);
    expect(d.regions).toBe(2);
    expect(d.segments.some((s) => s.kind === 'elided' && s.of === 'same')).toBe(true);
  });

  it('keeps the head and tail of a very long insertion', () => {
    const d = diffText('start end', `start ${'word '.repeat(500)}end`, { maxChanged: 20 });
    const elided = d.segments.find((s) => s.kind === 'elided');
    expect(elided).toEqual({ kind: 'elided', of: 'added', length: 2500 - 20 });
  });

  it('never splits a surrogate pair', () => {
    const d = diffText('x😀a', 'x😁a', FULL);
    for (const s of d.segments) {
      if (s.kind === 'elided') continue;
      expect(wellFormed(s.text)).toBe(true);
    }
  });

  it('rebuilds both strings exactly, and places the first change right (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', ' ', '.', 'é', '😀', '\n'),
      maxLength: 60,
    });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const d = diffText(a, b, FULL);
        if (a === b) {
          expect(d).toEqual({ firstChange: -1, segments: [], regions: 0 });
          return;
        }
        expect(side(d.segments, 'removed')).toBe(a);
        expect(side(d.segments, 'added')).toBe(b);
        expect(a.slice(0, d.firstChange)).toBe(b.slice(0, d.firstChange));
        expect(a.charAt(d.firstChange) === b.charAt(d.firstChange) && a.length === b.length).toBe(
          false,
        );
        for (const s of d.segments) if (s.kind !== 'elided') expect(wellFormed(s.text)).toBe(true);
      }),
    );
  });

  it('elides exactly what it leaves out (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.'), maxLength: 300 });
    fc.assert(
      fc.property(text, text, fc.nat(30), fc.nat(30), (a, b, context, maxChanged) => {
        const d = diffText(a, b, { context, maxChanged });
        const length = (which: 'removed' | 'added') =>
          d.segments.reduce(
            (n, s) =>
              n +
              (s.kind === 'elided'
                ? s.of === 'same' || s.of === which
                  ? s.length
                  : 0
                : s.kind === 'same' || s.kind === which
                  ? s.text.length
                  : 0),
            0,
          );
        if (a === b) return;
        expect(length('removed')).toBe(a.length);
        expect(length('added')).toBe(b.length);
      }),
    );
  });

  it('refuses a bad option', () => {
    expect(() => diffText('a', 'b', { context: -1 })).toThrow(
      'options.context: expected a non-negative integer, got -1',
    );
  });
});
