import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../redact/index.js';
import { OutputCapture } from './output-capture.js';

const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');
const PEM =
  '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF\n-----END PRIVATE KEY-----';

function capture(chunks: readonly (string | Uint8Array)[], limit = 1 << 16) {
  const out = new OutputCapture(limit);
  for (const chunk of chunks) out.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return out.result();
}

describe('OutputCapture', () => {
  it('keeps the first `limit` bytes as text and counts every byte', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 24 }), { maxLength: 8 }),
        fc.nat(80),
        (chunks, limit) => {
          const all = Buffer.concat(chunks);
          expect(capture(chunks, limit)).toMatchObject({
            text: new TextDecoder().decode(all.subarray(0, limit)),
            bytes: all.length,
            truncated: all.length > limit,
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('digests the stream as stored: decoded as UTF-8 and redacted line by line', () => {
    const lines = ['user=ann password=hunter2\n', 'plain line\n', `${PEM}\n`, 'token=abc'];
    const result = capture(lines);
    const redacted = `user=ann password=${REDACTED}\nplain line\n${REDACTED}\ntoken=${REDACTED}`;
    expect(result.sha256).toBe(sha256(redacted));
    expect(result.sha256).not.toBe(sha256(lines.join('')));
    expect(result.sha256_covers).toBe('redacted-lines');
    // The text is kept as written: the run-end event is redacted as a whole when it is stored.
    expect(new Redactor().redactString(result.text)).toBe(redacted);
  });

  it('gives the same digest however the writes were split, secrets included', () => {
    const text = `a\n--password hunter2\n${PEM}\nAKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nz`;
    const whole = capture([text]).sha256;
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(text.length), { maxLength: 12 }), (cuts) => {
        const at = [0, ...cuts.sort((x, y) => x - y), text.length];
        const chunks = at.slice(1).map((end, i) => text.slice(at[i], end));
        expect(capture(chunks).sha256).toBe(whole);
      }),
      { numRuns: 200 },
    );
    expect(whole).toBe(
      sha256(`a\n--password ${REDACTED}\n${REDACTED}\n${REDACTED} ${REDACTED}\nz`),
    );
  });

  it('digests a stream with no secret as its UTF-8 text (invalid bytes as U+FFFD)', () => {
    const bytes = Buffer.from([0x61, 0xff, 0x0a, 0xc3]);
    expect(capture([bytes]).sha256).toBe(sha256(Buffer.from('a\uFFFD\n\uFFFD', 'utf8')));
    expect(capture(['a\nb\n']).sha256).toBe(sha256('a\nb\n'));
  });

  it('truncates inside a chunk and inside a character (which decodes as U+FFFD)', () => {
    const result = capture(['abc', 'dé€f'], 5); // é is 2 bytes: the limit falls after its first byte
    expect(result).toMatchObject({ text: 'abcd\uFFFD', bytes: 10, truncated: true });
  });

  it('with limit 0 keeps no text; nothing written is not truncated', () => {
    expect(capture(['x'], 0)).toMatchObject({ text: '', bytes: 1, truncated: true });
    expect(capture([], 10)).toEqual({
      text: '',
      bytes: 0,
      sha256: sha256(''),
      sha256_covers: 'redacted-lines',
      truncated: false,
    });
  });
});
