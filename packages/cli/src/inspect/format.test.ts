import { describe, expect, it } from 'vitest';
import { formatDuration, safe } from './format.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [1000, '1 s'],
    [2950, '2.95 s'],
    [12_500, '12.5 s'],
    [185_000, '3m 05s'],
    [3_720_000, '1h 02m'],
    [-5, '-5 ms (ends before it starts)'],
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('safe', () => {
  it('escapes C0, DEL, C1 and bidi override characters', () => {
    expect(safe('a\u001b[31mb\u0007\u007f\u009b\u202e')).toBe(
      'a\\u001b[31mb\\u0007\\u007f\\u009b\\u202e',
    );
    expect(safe('line\nbreak\ttab')).toBe('line\\u000abreak\\u0009tab');
  });
  it('cuts long text with an ellipsis, counting code points', () => {
    expect(safe('x'.repeat(100), 10)).toBe('xxxxxxxxx…');
    expect(safe('😀'.repeat(5), 5)).toBe('😀'.repeat(5));
  });
});
