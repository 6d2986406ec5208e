import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoted } from './quote.js';

/** Strings of ASCII, escapes, non-ASCII and lone surrogates alike. */
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom('a', '"', '\\', '\u0000', '\u001f', '\u007f', 'é', '\ud83d', '\ude00'),
  }),
);

describe('quoted', () => {
  it('is JSON.stringify on every string', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(quoted(text)).toBe(JSON.stringify(text));
      }),
    );
  });

  it('quotes plain text as it is and escapes the rest', () => {
    expect(quoted('now')).toBe('"now"');
    expect(quoted('')).toBe('""');
    expect(quoted('a"b')).toBe('"a\\"b"');
    expect(quoted('\n')).toBe('"\\n"');
    expect(quoted('\ud83d')).toBe('"\\ud83d"');
  });
});
