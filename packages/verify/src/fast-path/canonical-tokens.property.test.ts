// Property: isJsonNumber accepts exactly the runs of number characters JSON.parse reads as a
// number (RFC 8259 §6), which is how the event reader tells a number token from one that is
// not JSON (`01`, `1.`, `-`, `1e` …).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonNumber } from './canonical-tokens.js';

/** Whether JSON.parse reads `s`, made only of number characters, as a JSON text. */
function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

const run = fc.string({
  unit: fc.constantFrom(...'0123456789+-.eE', '0', '1', '-'),
  maxLength: 12,
});

describe('isJsonNumber', () => {
  it('accepts exactly the runs of number characters JSON.parse reads', () => {
    fc.assert(
      fc.property(run, fc.string({ maxLength: 3 }), (s, around) => {
        // Read in place, between other characters.
        const text = around + s + around;
        expect(isJsonNumber(text, around.length, around.length + s.length)).toBe(parses(s));
      }),
      { numRuns: 20000 },
    );
  });

  it('decides the edge cases of the grammar', () => {
    for (const good of ['0', '-0', '1', '-1', '10', '1.5', '0.0', '1e5', '1E+5', '1e-05', '0e0'])
      expect(isJsonNumber(good, 0, good.length), good).toBe(true);
    for (const bad of ['', '-', '01', '-01', '1.', '.5', '1e', '1e+', '+1', '1.5.5', '1e5e5'])
      expect(isJsonNumber(bad, 0, bad.length), bad).toBe(false);
  });
});
