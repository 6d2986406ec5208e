import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidUtf8Chunk, Utf8Chunks, wholeCharacters } from './utf8-chunks.js';

const encoder = new TextEncoder();

/** What decoding all the bytes at once gives: the text, or null when they are not UTF-8. */
function decodedWhole(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The bytes cut at the given places, decoded chunk by chunk: the text, or null when refused. */
function decodedInChunks(bytes: Uint8Array, cuts: readonly number[]): string | null {
  const decoder = new Utf8Chunks();
  const places = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let text = '';
  let at = 0;
  try {
    for (const place of [...places, bytes.length]) {
      text += decoder.decode(bytes.slice(at, place)).text;
      at = place;
    }
    decoder.end();
    return text;
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidUtf8Chunk);
    return null;
  }
}

/** Bytes that are mostly UTF-8 text, with now and then a byte order mark or a stray byte. */
const textLikeBytes = fc
  .array(
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((s) => encoder.encode(s)),
      },
      { weight: 1, arbitrary: fc.constant(Uint8Array.of(0xef, 0xbb, 0xbf)) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }) },
    ),
    { maxLength: 12 },
  )
  .map((parts) => {
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    return bytes;
  });

describe('Utf8Chunks', () => {
  it('decodes bytes cut anywhere as TextDecoder decodes them whole, and refuses what it refuses', () => {
    fc.assert(
      fc.property(textLikeBytes, fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        expect(decodedInChunks(bytes, cuts)).toBe(decodedWhole(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('drops one byte order mark at the very start only, even when it comes a byte at a time', () => {
    const bytes = Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0xef, 0xbb, 0xbf, 0x7d);
    expect(decodedInChunks(bytes, [1, 2, 3, 5, 6])).toBe('{\ufeff}');
    expect(decodedInChunks(bytes, [])).toBe('{\ufeff}');
  });

  it('refuses a character cut off at the end of the stream', () => {
    expect(decodedInChunks(Uint8Array.of(0x61, 0xe2, 0x82), [])).toBeNull();
    expect(decodedInChunks(Uint8Array.of(0x61, 0xe2, 0x82), [1, 2])).toBeNull();
  });

  it('hands on the bytes each text was decoded from', () => {
    const decoder = new Utf8Chunks();
    const euro = encoder.encode('a€');
    const first = decoder.decode(euro.subarray(0, 2));
    expect(first.text).toBe('a');
    expect([...first.bytes]).toEqual([0x61]);
    const second = decoder.decode(euro.subarray(2));
    expect(second.text).toBe('€');
    expect([...second.bytes]).toEqual([0xe2, 0x82, 0xac]);
  });

  it('finds where the last whole character ends', () => {
    expect(wholeCharacters(encoder.encode('ab'))).toBe(2);
    expect(wholeCharacters(Uint8Array.of(0x61, 0xf0, 0x9f, 0x98))).toBe(1);
    expect(wholeCharacters(Uint8Array.of(0xf0, 0x9f, 0x98, 0x80))).toBe(4);
    expect(wholeCharacters(Uint8Array.of(0x61, 0xc3))).toBe(1);
    // Not UTF-8 at all: left in for the decoder to refuse.
    expect(wholeCharacters(Uint8Array.of(0x80, 0x80, 0x80, 0x80))).toBe(4);
    expect(wholeCharacters(new Uint8Array(0))).toBe(0);
  });
});
