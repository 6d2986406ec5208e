import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64 } from '@scure/base';
import { canonicalBase64 } from './pem.js';

// The base64 layer of PEM bodies: @scure/base, held here to the strictness PEM reading needs.
const base64Encode = (bytes: Uint8Array): string => base64.encode(bytes);
const base64Decode = canonicalBase64;

describe('PEM body base64 (@scure/base)', () => {
  it('encodes like Buffer and round-trips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = base64Encode(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(base64Decode(text)).toEqual(bytes);
      }),
    );
  });

  it('matches the RFC 4648 §10 test vectors', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of cases) {
      const bytes = new TextEncoder().encode(plain);
      expect(base64Encode(bytes)).toBe(encoded);
      expect(base64Decode(encoded)).toEqual(bytes);
    }
  });

  it('refuses anything that is not canonical padded base64', () => {
    for (const bad of [
      'Zg', // missing padding
      'Zg=', // wrong length
      'Zh==', // non-zero padding bits (would also decode to "f" leniently)
      'Zm9=', // non-zero padding bits
      'Zm 9v', // whitespace
      'Zm9v\n', // newline
      'Zm-v', // base64url alphabet
      'Zm_v',
      '====',
      'Z===',
      'Zg==Zg==', // padding in the middle
      'Zm9vé===',
    ]) {
      expect(base64Decode(bad), bad).toBeNull();
    }
  });
});
