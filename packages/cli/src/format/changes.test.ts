import { makeStyle } from '@runback/verify-cli';
import { describe, expect, it } from 'vitest';
import { formatChanges, textDiffLines } from './changes.js';

const HEAD = 'You are the credit desk assistant of a regional bank. '.repeat(4);

describe('formatChanges', () => {
  it('shows a long string changed deep inside as its changed words, 40 characters of context each side', () => {
    const lines = formatChanges('request', [
      {
        op: 'replace',
        path: '/messages/0/content',
        before: `${HEAD}Approve when the income is verified. ${'Be brief. '.repeat(20)}`,
        after: `${HEAD}Approve when the income is confirmed. ${'Be brief. '.repeat(20)}`,
      },
    ]);
    expect(lines).toEqual([
      '    request ~ /messages/0/content  text changed at character 244 (453 → 454 characters):',
      '              …gional bank. Approve when the income is [-verified-]{+confirmed+}. Be brief. Be brief. Be brief. Be brief…',
    ]);
  });

  it('keeps short values on one line, as before', () => {
    expect(
      formatChanges('output', [{ op: 'replace', path: '/score', before: 640, after: 600 }]),
    ).toEqual(['    output  ~ /score  640 → 600']);
  });

  it('escapes control and bidi characters from the record, in the context and the change', () => {
    const hostile = `${HEAD}\u001b[2J\u202e evil \u0007`;
    const lines = textDiffLines(
      `${hostile}one`,
      `${hostile}two\u001b]0;title\u0007`,
      makeStyle(true),
    );
    const text = lines.join('\n');
    // The only escape sequences left are the colours this formatter adds.
    // eslint-disable-next-line no-control-regex
    const withoutColours = text.replace(/\u001b\[(?:31|32|39)m/g, '');
    // eslint-disable-next-line no-control-regex
    expect(withoutColours).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(withoutColours).toContain('\\u001b[2J\\u202e evil \\u0007');
    expect(withoutColours).toContain('{+two\\u001b]0;title\\u0007+}');
  });

  it('shows line breaks and tabs as escapes, keeping one region on one line', () => {
    expect(textDiffLines('a\nb\tc', 'a\nB\tc')).toEqual(['a\\n[-b-]{+B+}\\tc']);
  });

  it('lists at most six regions, then how many more', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const far = 'unchanged text that separates the regions by a long way, ';
    const a = words.map((w) => `${w} ${far.repeat(2)}`).join('');
    const b = words.map((w) => `${w}x ${far.repeat(2)}`).join('');
    const lines = textDiffLines(a, b);
    expect(lines).toHaveLength(7);
    expect(lines[6]).toBe('… and 34 more changed regions');
  });
});
