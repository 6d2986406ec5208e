import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8Strict, InvalidUtf8Error } from './index.js';
import { findInvalidUtf8 } from './utf8.js';

const fatal = (bytes: Uint8Array): string | undefined => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
};

function thrown(bytes: Uint8Array): InvalidUtf8Error {
  try {
    decodeUtf8Strict(bytes);
  } catch (e) {
    if (e instanceof InvalidUtf8Error) return e;
    throw e;
  }
  throw new Error('expected decodeUtf8Strict to throw');
}

describe('decodeUtf8Strict', () => {
  it('decodes well-formed UTF-8, one to four bytes per character', () => {
    const s = 'a é € 😀 \u{10ffff} \ud7ff \ue000';
    expect(decodeUtf8Strict(new TextEncoder().encode(s))).toBe(s);
    expect(decodeUtf8Strict(new Uint8Array())).toBe('');
  });

  it('drops one leading byte order mark only', () => {
    expect(decodeUtf8Strict(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('a');
    expect(decodeUtf8Strict(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]))).toBe('\ufeff');
    expect(decodeUtf8Strict(new Uint8Array([0x61, 0xef, 0xbb, 0xbf]))).toBe('a\ufeff');
  });

  it('throws InvalidUtf8Error with the offset of the first ill-formed sequence', () => {
    const cases: Array<[number[], number]> = [
      [[0x80], 0],
      [[0x61, 0x62, 0xbf], 2],
      [[0xc0, 0xaf], 0],
      [[0xc1, 0xbf], 0],
      [[0xe0, 0x9f, 0xbf], 0],
      [[0xf0, 0x8f, 0xbf, 0xbf], 0],
      [[0x61, 0xed, 0xa0, 0x80], 1],
      [[0xed, 0xbf, 0xbf], 0],
      [[0xf4, 0x90, 0x80, 0x80], 0],
      [[0xf5, 0x80, 0x80, 0x80], 0],
      [[0xff], 0],
      [[0xfe], 0],
      [[0x61, 0xf0, 0x9f, 0x98], 1],
      [[0x61, 0xe2, 0x82], 1],
      [[0xc3], 0],
      [[0xe2, 0x82, 0x41], 0],
      [[0xef, 0xbb, 0xbf, 0xc3, 0x28], 3],
    ];
    for (const [b, offset] of cases) {
      const e = thrown(new Uint8Array(b));
      expect(e.code).toBe('JSON_INVALID_UTF8');
      expect(e.offset).toBe(offset);
      expect(e.message).toMatch(new RegExp(`^invalid UTF-8 at byte offset ${offset}: `));
    }
  });

  it('agrees with a fatal TextDecoder on arbitrary bytes, and finds the first problem', () => {
    const interesting = fc.constantFrom(
      0x00,
      0x41,
      0x7f,
      0x80,
      0x8f,
      0x90,
      0x9f,
      0xa0,
      0xbf,
      0xc0,
      0xc1,
      0xc2,
      0xdf,
      0xe0,
      0xed,
      0xef,
      0xf0,
      0xf4,
      0xf5,
      0xff,
    );
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.array(interesting, { maxLength: 12 }).map((a) => new Uint8Array(a)),
      fc
        .tuple(
          fc.string({ unit: 'binary', maxLength: 12 }),
          fc.nat(),
          fc.integer({ min: 0, max: 255 }),
        )
        .map(([s, at, b]) => {
          const enc = new TextEncoder().encode(s);
          if (enc.length > 0) enc[at % enc.length] = b;
          return enc;
        }),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const expected = fatal(b);
        const problem = findInvalidUtf8(b);
        expect(problem === undefined).toBe(expected !== undefined);
        if (problem !== undefined) {
          // Everything before the reported offset is well-formed.
          expect(fatal(b.subarray(0, problem.offset))).toBeDefined();
          expect(thrown(b).offset).toBe(problem.offset);
        } else {
          const withoutBom = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b;
          expect(decodeUtf8Strict(b)).toBe(fatal(withoutBom));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
