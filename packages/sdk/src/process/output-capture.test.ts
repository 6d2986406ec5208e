import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

describe('OutputCapture', () => {
  it('keeps the first `limit` bytes as text and pins every byte by length and SHA-256', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 24 }), { maxLength: 8 }),
        fc.nat(80),
        (chunks, limit) => {
          const capture = new OutputCapture(limit);
          for (const chunk of chunks) capture.add(chunk);
          const all = Buffer.concat(chunks);
          expect(capture.result()).toEqual({
            text: new TextDecoder().decode(all.subarray(0, limit)),
            bytes: all.length,
            sha256: createHash('sha256').update(all).digest('hex'),
            truncated: all.length > limit,
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('truncates inside a chunk and inside a character (which decodes as U+FFFD)', () => {
    const capture = new OutputCapture(5);
    capture.add(Buffer.from('abc'));
    capture.add(Buffer.from('dé€f')); // é is 2 bytes: the limit falls after its first byte
    expect(capture.result()).toMatchObject({ text: 'abcd\uFFFD', bytes: 10, truncated: true });
  });

  it('with limit 0 keeps no text; nothing written is not truncated', () => {
    const none = new OutputCapture(0);
    none.add(Buffer.from('x'));
    expect(none.result()).toMatchObject({ text: '', bytes: 1, truncated: true });
    expect(new OutputCapture(10).result()).toEqual({
      text: '',
      bytes: 0,
      sha256: createHash('sha256').digest('hex'),
      truncated: false,
    });
  });
});
