import { describe, expect, it } from 'vitest';
import { generatedAtOf } from './generated-at.js';

describe('generatedAtOf', () => {
  it('keeps a UTC time with milliseconds, and defaults to now', () => {
    expect(generatedAtOf('2026-06-14T02:47:13.950Z')).toBe('2026-06-14T02:47:13.950Z');
    const now = new Date('2027-01-02T03:04:05.006Z');
    expect(generatedAtOf(undefined, () => now)).toBe('2027-01-02T03:04:05.006Z');
  });

  it.each([
    '2026-06-14T02:47:13Z', // no milliseconds
    '2026-06-14T02:47:13.950+00:00', // not Z
    '2026-02-30T00:00:00.000Z', // no such day
    '2026-06-14 02:47:13.950Z',
    '',
  ])('refuses %j as a usage error naming the flag', (value) => {
    expect(() => generatedAtOf(value)).toThrow(
      expect.objectContaining({
        code: 'USAGE_BAD_GENERATED_AT',
        message: expect.stringContaining('expected --generated-at') as unknown,
      }),
    );
  });
});
