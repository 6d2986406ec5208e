import { createHmac } from 'node:crypto';
import { hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVectorJson, sharedVectorsDir } from '../../../test-support/vectors.js';
import { SignError } from './errors.js';
import { constantTimeEqual, hmacSha256, hmacSha256Hex, verifyHmacSha256 } from './hmac.js';

const vectorsDir = sharedVectorsDir();
const describeVectors = vectorsDir === null ? describe.skip : describe;
function vectors<T>(empty: T, ...path: string[]): T {
  return vectorsDir === null ? empty : readVectorJson<T>(vectorsDir, ...path);
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

interface Rfc4231 {
  tests: { id: number; key: string; data: string; hmac_sha256: string }[];
}

describeVectors('RFC 4231 HMAC-SHA256 test cases', () => {
  const file = vectors<Rfc4231>({ tests: [] }, 'hmac', 'rfc4231.json');

  it('has test cases 1 to 7', () => {
    expect(file.tests.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it.each(file.tests.map((t) => [t.id, t] as const))('test case %i', (id, t) => {
    const tag = hmacSha256(hexToBytes(t.key), hexToBytes(t.data));
    if (id === 5) {
      // RFC 4231 §4.6: the output is truncated to 128 bits.
      expect(t.hmac_sha256).toHaveLength(32);
      expect(constantTimeEqual(tag.subarray(0, 16), hexToBytes(t.hmac_sha256))).toBe(true);
    } else {
      expect(hex(tag)).toBe(t.hmac_sha256);
      expect(hmacSha256Hex(hexToBytes(t.key), hexToBytes(t.data))).toBe(t.hmac_sha256);
      expect(verifyHmacSha256(hexToBytes(t.key), hexToBytes(t.data), t.hmac_sha256)).toBe(true);
    }
  });
});

interface WycheproofMac {
  numberOfTests: number;
  testGroups: {
    keySize: number;
    tagSize: number;
    tests: {
      tcId: number;
      key: string;
      msg: string;
      tag: string;
      result: 'valid' | 'invalid' | 'acceptable';
    }[];
  }[];
}

describeVectors('Wycheproof hmac_sha256_test.json', () => {
  const file = vectors<WycheproofMac>(
    { numberOfTests: 0, testGroups: [] },
    'wycheproof',
    'hmac_sha256_test.json',
  );

  it('valid tags match and invalid ones do not, for every test (truncated tags by prefix)', () => {
    const tally = { valid: 0, invalid: 0, acceptable: 0 };
    const wrong: number[] = [];
    let truncated = 0;
    for (const group of file.testGroups) {
      for (const t of group.tests) {
        tally[t.result]++;
        const full = hmacSha256(hexToBytes(t.key), hexToBytes(t.msg));
        const bytes = group.tagSize / 8;
        if (bytes < 32) truncated++;
        const matches = constantTimeEqual(full.subarray(0, bytes), hexToBytes(t.tag));
        if (matches !== (t.result === 'valid')) wrong.push(t.tcId);
        if (
          bytes === 32 &&
          verifyHmacSha256(hexToBytes(t.key), hexToBytes(t.msg), t.tag) !== (t.result === 'valid')
        ) {
          wrong.push(t.tcId);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(tally).toEqual({ valid: 66, invalid: 108, acceptable: 0 });
    expect(tally.valid + tally.invalid).toBe(file.numberOfTests);
    expect(truncated).toBe(87);
  });
});

describe('HMAC-SHA256', () => {
  it('treats a string key and message as UTF-8, exactly as node createHmac does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (key, message) => {
        const expected = createHmac('sha256', key).update(message).digest('hex');
        expect(hmacSha256Hex(key, message)).toBe(expected);
        const enc = new TextEncoder();
        expect(hmacSha256Hex(enc.encode(key), enc.encode(message))).toBe(expected);
        expect(verifyHmacSha256(key, message, expected)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('hashes keys longer than the block size first (RFC 2104 §2), like node', () => {
    const key = 'k'.repeat(200);
    expect(hmacSha256Hex(key, 'm')).toBe(createHmac('sha256', key).update('m').digest('hex'));
  });

  it('rejects malformed or wrong tags without throwing', () => {
    const tag = hmacSha256Hex('key', 'message');
    expect(verifyHmacSha256('key', 'message', tag)).toBe(true);
    expect(verifyHmacSha256('key', 'message!', tag)).toBe(false);
    expect(verifyHmacSha256('Key', 'message', tag)).toBe(false);
    for (const bad of [
      tag.toUpperCase(),
      tag.slice(0, 62),
      tag + '00',
      tag.slice(0, 63) + 'g',
      '',
      tag.slice(0, 32),
    ]) {
      expect(verifyHmacSha256('key', 'message', bad)).toBe(false);
    }
    for (const notString of [null, 42, new Uint8Array(32), {}]) {
      expect(verifyHmacSha256('key', 'message', notString as unknown as string)).toBe(false);
    }
  });

  it('throws a coded SignError for a key or message of the wrong type', () => {
    expect(() => hmacSha256(42 as unknown as string, 'm')).toThrow(SignError);
    try {
      hmacSha256Hex('k', { a: 1 } as unknown as string);
      expect.unreachable();
    } catch (err) {
      expect((err as SignError).code).toBe('ARG_INVALID_TYPE');
      expect((err as SignError).message).toBe(
        'message: expected a string or Uint8Array, got an object',
      );
    }
  });

  it('any single-character change to the tag or the message makes verification false', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ minLength: 1 }),
        fc.nat(63),
        fc.constantFrom(...'0123456789abcdefA'),
        (key, message, i, c) => {
          const tag = hmacSha256Hex(key, message);
          fc.pre(tag[i] !== c);
          expect(verifyHmacSha256(key, message, tag.slice(0, i) + c + tag.slice(i + 1))).toBe(
            false,
          );
          expect(verifyHmacSha256(key, message + 'x', tag)).toBe(false);
        },
      ),
    );
  });
});

describe('constantTimeEqual', () => {
  it('compares contents, whatever the lengths', () => {
    expect(constantTimeEqual(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3))).toBe(true);
    expect(constantTimeEqual(new Uint8Array(0), new Uint8Array(0))).toBe(true);
    expect(constantTimeEqual(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 4))).toBe(false);
    expect(constantTimeEqual(Uint8Array.of(0, 2, 3), Uint8Array.of(1, 2, 3))).toBe(false);
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3))).toBe(false);
    expect(constantTimeEqual(Buffer.from([9]), Uint8Array.of(9))).toBe(true);
  });

  it('agrees with plain equality on random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(hex(a) === hex(b));
        expect(constantTimeEqual(a, a.slice())).toBe(true);
      }),
    );
  });

  it('throws for non-bytes', () => {
    expect(() => constantTimeEqual('ab' as unknown as Uint8Array, Uint8Array.of(1))).toThrow(
      /expected two Uint8Arrays, got the string "ab" and 1 bytes/,
    );
  });
});
