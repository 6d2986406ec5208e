import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { preview, previewPair } from './preview.js';

describe('previewPair', () => {
  it('opens both strings just before a difference a plain preview would cut off', () => {
    const head = 'You are the credit desk assistant of a regional bank. '.repeat(4);
    const [a, b] = previewPair(`${head}Approve when verified.`, `${head}Approve when confirmed.`);
    expect(preview(`${head}Approve when verified.`)).toBe(
      preview(`${head}Approve when confirmed.`),
    );
    expect(a).toBe('"...onal bank. Approve when verified."');
    expect(b).toBe('"...onal bank. Approve when confirmed."');
  });

  it('previews as preview does when the difference is in view, or the values are not strings', () => {
    expect(previewPair('score 640', 'score 600')).toEqual(['"score 640"', '"score 600"']);
    expect(previewPair({ a: 1 }, 2)).toEqual(['{"a":1}', '2']);
  });

  it('keeps each side within width, and the two windows differ when the strings do (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 300 }),
        fc.integer({ min: 40, max: 120 }),
        (x, y, width) => {
          const [a, b] = previewPair(x, y, width);
          expect(a.length).toBeLessThanOrEqual(width);
          expect(b.length).toBeLessThanOrEqual(width);
        },
      ),
    );
    const long = 'x'.repeat(500);
    const [a, b] = previewPair(`${long}a${long}`, `${long}b${long}`);
    expect(a).not.toBe(b);
  });
});
