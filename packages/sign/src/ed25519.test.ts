import {
  createPrivateKey,
  createPublicKey,
  sign as nodeSign,
  verify as nodeVerify,
} from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVectorJson, sharedVectorsDir } from '../../../test-support/vectors.js';
import {
  generateEd25519KeyPair,
  isTorsionFreePublicKey,
  publicKeyFromPrivateKey,
  signEd25519,
  verifyEd25519,
} from './ed25519.js';
import { SignError } from './errors.js';
import { privateKeyToPem, publicKeyToPem } from './keys.js';

const vectorsDir = sharedVectorsDir();
const describeVectors = vectorsDir === null ? describe.skip : describe;
/** Reads a vector file, or gives `empty` when the folder is absent (the suite is then skipped). */
function vectors<T>(empty: T, ...path: string[]): T {
  return vectorsDir === null ? empty : readVectorJson<T>(vectorsDir, ...path);
}

/** The order L of the prime-order subgroup (RFC 8032 §5.1). */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

function flipBit(hex: string, bit: number): string {
  const bytes = hexToBytes(hex);
  bytes[bit >> 3] = (bytes[bit >> 3] as number) ^ (1 << (bit & 7));
  return Buffer.from(bytes).toString('hex');
}

interface Rfc8032Vector {
  name: string;
  secretKey: string;
  publicKey: string;
  message: string;
  signature: string;
}

describeVectors('RFC 8032 §7.1 test vectors', () => {
  const cases = vectors<Rfc8032Vector[]>([], 'ed25519', 'rfc8032_ed25519.json');

  it('has the five §7.1 vectors', () => {
    expect(cases.map((c) => c.name)).toEqual(['1', '2', '3', '1024', 'SHA(abc)']);
  });

  it.each(cases.map((c) => [c.name, c] as const))(
    'vector %s: key, signature, verification',
    (_, c) => {
      const seed = hexToBytes(c.secretKey);
      const message = hexToBytes(c.message);
      const pair = generateEd25519KeyPair(seed);
      expect(Buffer.from(pair.publicKey).toString('hex')).toBe(c.publicKey);
      expect(Buffer.from(publicKeyFromPrivateKey(seed)).toString('hex')).toBe(c.publicKey);
      expect(signEd25519(message, seed)).toBe(c.signature);
      expect(verifyEd25519(c.signature, message, pair.publicKey)).toBe(true);
      // One flipped bit anywhere in the signature, and in the message, breaks it.
      for (const bit of [0, 7, 255, 256, 300, 511]) {
        expect(verifyEd25519(flipBit(c.signature, bit), message, pair.publicKey)).toBe(false);
      }
      const tampered = c.message === '' ? Uint8Array.of(0) : hexToBytes(flipBit(c.message, 0));
      expect(verifyEd25519(c.signature, tampered, pair.publicKey)).toBe(false);
    },
  );

  it('rejects a non-canonical S (S + L, same value mod L): RFC 8032 §5.1.7 step 1', () => {
    const c = cases[0] as Rfc8032Vector;
    const bytes = hexToBytes(c.signature);
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(bytes[i] as number);
    let t = s + L;
    for (let i = 32; i < 64; i++) {
      bytes[i] = Number(t & 0xffn);
      t >>= 8n;
    }
    expect(t).toBe(0n); // still fits in 32 bytes
    const malleated = Buffer.from(bytes).toString('hex');
    expect(verifyEd25519(malleated, hexToBytes(c.message), hexToBytes(c.publicKey))).toBe(false);
    // ZIP-215 (a consensus rule, not RFC 8032) would reject it too; a lax verifier that reduces
    // S mod L would not. The point of this test is that ours does not reduce.
  });
});

interface WycheproofEd25519 {
  numberOfTests: number;
  testGroups: {
    publicKey: { pk: string };
    tests: {
      tcId: number;
      msg: string;
      sig: string;
      result: 'valid' | 'invalid' | 'acceptable';
      flags: string[];
    }[];
  }[];
}

describeVectors('Wycheproof ed25519_test.json', () => {
  const file = vectors<WycheproofEd25519>(
    { numberOfTests: 0, testGroups: [] },
    'wycheproof',
    'ed25519_test.json',
  );

  it('valid signatures verify and invalid ones do not, for every test', () => {
    const tally = { valid: 0, invalid: 0, acceptable: 0 };
    const wrong: number[] = [];
    for (const group of file.testGroups) {
      const publicKey = hexToBytes(group.publicKey.pk);
      for (const t of group.tests) {
        tally[t.result]++;
        // The signature goes in as the hex string the file holds: truncated, overlong and
        // odd-length signatures must come back false, not throw.
        const ok = verifyEd25519(t.sig, hexToBytes(t.msg), publicKey);
        if (ok !== (t.result === 'valid')) wrong.push(t.tcId);
      }
    }
    expect(wrong).toEqual([]);
    expect(tally).toEqual({ valid: 88, invalid: 63, acceptable: 0 });
    expect(tally.valid + tally.invalid).toBe(file.numberOfTests);
  });
});

interface SpeccheckCase {
  message: string;
  pub_key: string;
  signature: string;
}

/**
 * What the encodings in a case are, computed with noble's point decoder (not taken on trust
 * from the case list), so the expectation below is derived from RFC 8032's rules.
 */
function classify(pubKey: string, signature: string) {
  const decodes = (
    hex: string,
    zip215: boolean,
  ): ReturnType<typeof ed25519.Point.fromBytes> | null => {
    try {
      return ed25519.Point.fromBytes(hexToBytes(hex), zip215);
    } catch {
      return null;
    }
  };
  const rHex = signature.slice(0, 64);
  let s = 0n;
  const sBytes = hexToBytes(signature.slice(64));
  for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(sBytes[i] as number);
  const a = decodes(pubKey, true);
  const r = decodes(rHex, true);
  return {
    sInRange: s < L,
    canonicalA: decodes(pubKey, false) !== null,
    canonicalR: decodes(rHex, false) !== null,
    smallOrderA: a !== null && a.isSmallOrder(),
    smallOrderR: r !== null && r.isSmallOrder(),
  };
}

describeVectors('Ed25519 edge cases: speccheck (Chalkias et al., "Taming the many EdDSAs")', () => {
  const cases = vectors<SpeccheckCase[]>([], 'ed25519', 'speccheck_cases.json');

  it('are decided by the strict RFC 8032 rules', () => {
    expect(cases).toHaveLength(12);
    const accepted: number[] = [];
    cases.forEach((c, i) => {
      const verdict = verifyEd25519(c.signature, hexToBytes(c.message), hexToBytes(c.pub_key));
      const k = classify(c.pub_key, c.signature);
      // RFC 8032 §5.1.7: S must be < L, and R and A must decode canonically (y < p, and no
      // "negative zero" x). noble's strict mode also refuses a small-order A (beyond RFC 8032,
      // which does not require that check; no real key has small order).
      const mustReject = !k.sInRange || !k.canonicalA || !k.canonicalR || k.smallOrderA;
      if (mustReject) expect(verdict, `case ${i}`).toBe(false);
      if (verdict) accepted.push(i);
    });
    // Decided by strict noble (zip215: false) plus the torsion-free key rule. "mixed" =
    // prime-order part plus torsion.
    //  0     S = 0, small-order A and R ............... rejected: small-order A (noble policy)
    //  1     small-order A, mixed-order R ............. rejected: small-order A (noble policy)
    //  2     mixed-order A, small-order R ............. rejected: A is not torsion-free (noble
    //                                                   alone accepts it: the equation holds)
    //  3     mixed-order A and R, SB = R + kA holds ... rejected: A is not torsion-free
    //  4     mixed-order A and R, only [8]SB = [8]R + [8]kA holds ... rejected: A is not
    //                                                   torsion-free (noble alone accepts it
    //                                                   under the cofactored check)
    //  5     mixed-order A, prime-order R, only the cofactored equation holds ... rejected:
    //                                                   A is not torsion-free
    //  6, 7  S > L, S >> L ............................ rejected: §5.1.7 step 1 (S < L)
    //  8, 9  R = (0, -1) written with x's sign bit set  rejected: non-canonical R (§5.1.3)
    //  10, 11  A = (0, -1) written with x's sign bit set  rejected: non-canonical (and
    //                                                   small-order) A (§5.1.3)
    expect(accepted).toEqual([]);
    const nobleAlone = cases.flatMap((c, i) =>
      ed25519.verify(hexToBytes(c.signature), hexToBytes(c.message), hexToBytes(c.pub_key), {
        zip215: false,
      })
        ? [i]
        : [],
    );
    expect(nobleAlone).toEqual([2, 3, 4, 5]);
    expect(cases.slice(2, 6).every((c) => !isTorsionFreePublicKey(hexToBytes(c.pub_key)))).toBe(
      true,
    );
    expect(cases.map((c) => classify(c.pub_key, c.signature).smallOrderR)).toEqual([
      true,
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});

interface Zip215Case {
  vk_bytes: string;
  sig_bytes: string;
  valid_legacy: boolean;
  valid_zip215: boolean;
}

describeVectors('Ed25519 edge cases: ZIP-215 (small-order points, non-canonical encodings)', () => {
  const cases = vectors<Zip215Case[]>([], 'ed25519', 'zip215.json');
  // The ZIP-215 test vectors all sign the message b"Zcash".
  const message = new TextEncoder().encode('Zcash');

  it('reads the set as intended: ZIP-215 rules accept every case', () => {
    expect(cases).toHaveLength(196);
    for (const c of cases) {
      expect(c.valid_zip215).toBe(true);
      expect(
        ed25519.verify(hexToBytes(c.sig_bytes), message, hexToBytes(c.vk_bytes), { zip215: true }),
      ).toBe(true);
    }
  });

  it('strict verification rejects all 196 (every key has small order; most encodings are non-canonical)', () => {
    let legacyValid = 0;
    for (const c of cases) {
      const k = classify(c.vk_bytes, c.sig_bytes);
      expect(k.smallOrderA).toBe(true);
      if (c.valid_legacy) legacyValid++;
      // Every case with valid_zip215: false would be rejected too (there are none in the set);
      // every case here is rejected, including the 3 that legacy (libsodium-era) verifiers took.
      expect(verifyEd25519(c.sig_bytes, message, hexToBytes(c.vk_bytes))).toBe(false);
    }
    expect(legacyValid).toBe(3);
    expect(cases.filter((c) => !c.valid_zip215)).toHaveLength(0);
  });
});

describe('Ed25519 arguments', () => {
  const pair = generateEd25519KeyPair(new Uint8Array(32).fill(7));
  const signature = signEd25519('hello', pair.privateKey);

  it('throws a coded SignError for a malformed key or message', () => {
    const expectCode = (fn: () => unknown, code: string, message: RegExp) => {
      let caught: unknown;
      try {
        fn();
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(SignError);
      expect(caught).toBeInstanceOf(TypeError);
      expect((caught as SignError).code).toBe(code);
      expect((caught as SignError).message).toMatch(message);
    };
    expectCode(
      () => signEd25519('x', new Uint8Array(31)),
      'KEY_WRONG_LENGTH',
      /expected 32 bytes, got 31 bytes/,
    );
    expectCode(
      () => signEd25519('x', 'key' as unknown as Uint8Array),
      'ARG_INVALID_TYPE',
      /expected a 32-byte Uint8Array, got the string "key"/,
    );
    expectCode(
      () => signEd25519(42 as unknown as string, pair.privateKey),
      'ARG_INVALID_TYPE',
      /expected a string or Uint8Array, got number 42/,
    );
    expectCode(
      () => verifyEd25519(signature, 'hello', new Uint8Array(33)),
      'KEY_WRONG_LENGTH',
      /got 33 bytes/,
    );
    expectCode(
      () => verifyEd25519(signature, 'hello', [1, 2] as unknown as Uint8Array),
      'ARG_INVALID_TYPE',
      /got an array/,
    );
    expectCode(
      () => verifyEd25519(signature, null as unknown as string, pair.publicKey),
      'ARG_INVALID_TYPE',
      /got null/,
    );
    expectCode(
      () => generateEd25519KeyPair(new Uint8Array(16)),
      'KEY_WRONG_LENGTH',
      /got 16 bytes/,
    );
    expectCode(
      () => publicKeyFromPrivateKey(new Uint8Array(64)),
      'KEY_WRONG_LENGTH',
      /got 64 bytes/,
    );
  });

  it('returns false, never throws, for a malformed signature', () => {
    expect(verifyEd25519(signature, 'hello', pair.publicKey)).toBe(true);
    for (const bad of [
      signature.toUpperCase(),
      signature.slice(0, 126),
      signature + '00',
      signature.slice(0, 127) + 'g',
      `0x${signature.slice(2)}`,
      ` ${signature.slice(1)}`,
      '',
      'zz'.repeat(64),
      '0'.repeat(128),
    ]) {
      expect(verifyEd25519(bad, 'hello', pair.publicKey), bad).toBe(false);
    }
    for (const notString of [null, undefined, 42, {}, [], new Uint8Array(64)]) {
      expect(verifyEd25519(notString as string, 'hello', pair.publicKey)).toBe(false);
    }
  });

  it('returns false for a public key that is not a canonical point', () => {
    // y = p (2^255 - 19) is a non-canonical encoding of y = 0; all-ones is y >= p too.
    const nonCanonical = hexToBytes(
      'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    );
    expect(verifyEd25519(signature, 'hello', nonCanonical)).toBe(false);
    expect(verifyEd25519(signature, 'hello', new Uint8Array(32).fill(0xff))).toBe(false);
  });

  it('derives the key pair from a seed, deterministically, and copies it', () => {
    const seed = new Uint8Array(32).fill(1);
    const a = generateEd25519KeyPair(seed);
    const b = generateEd25519KeyPair(seed);
    expect(a).toEqual(b);
    expect(a.privateKey).not.toBe(seed);
    seed[0] = 9;
    expect(a.privateKey[0]).toBe(1);
  });

  it('generates distinct random key pairs without a seed', () => {
    const a = generateEd25519KeyPair();
    const b = generateEd25519KeyPair();
    expect(a.privateKey).toHaveLength(32);
    expect(a.publicKey).toHaveLength(32);
    expect(a.privateKey).not.toEqual(b.privateKey);
    expect(publicKeyFromPrivateKey(a.privateKey)).toEqual(a.publicKey);
  });

  it('encodes strings as UTF-8, like node:crypto (a lone surrogate becomes U+FFFD in both)', () => {
    const nodeKey = createPrivateKey(privateKeyToPem(pair.privateKey));
    for (const text of ['', 'héllo', '日本語', '🦀', '\ud800']) {
      const ours = signEd25519(text, pair.privateKey);
      expect(ours).toBe(nodeSign(null, Buffer.from(text, 'utf8'), nodeKey).toString('hex'));
      expect(signEd25519(new TextEncoder().encode(text), pair.privateKey)).toBe(ours);
    }
    expect(signEd25519('\ud800', pair.privateKey)).toBe(signEd25519('\ufffd', pair.privateKey));
  });
});

describe('Ed25519 properties', () => {
  const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });

  it('sign then verify round-trips, and matches node:crypto both ways', () => {
    fc.assert(
      fc.property(seedArb, fc.uint8Array({ maxLength: 300 }), (seed, message) => {
        const { privateKey, publicKey } = generateEd25519KeyPair(seed);
        const signature = signEd25519(message, privateKey);
        expect(signature).toMatch(/^[0-9a-f]{128}$/);
        expect(verifyEd25519(signature, message, publicKey)).toBe(true);
        expect(signature).toBe(
          nodeSign(null, message, createPrivateKey(privateKeyToPem(privateKey))).toString('hex'),
        );
        expect(
          nodeVerify(
            null,
            message,
            createPublicKey(publicKeyToPem(publicKey)),
            Buffer.from(signature, 'hex'),
          ),
        ).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('any single-character change to the signature hex makes it fail', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair(new Uint8Array(32).fill(3));
    fc.assert(
      fc.property(
        fc.string({ maxLength: 64 }),
        fc.nat({ max: 127 }),
        fc.constantFrom(...'0123456789abcdefABCDEFgx '),
        (message, index, replacement) => {
          const signature = signEd25519(message, privateKey);
          fc.pre(signature[index] !== replacement);
          const changed = signature.slice(0, index) + replacement + signature.slice(index + 1);
          expect(verifyEd25519(changed, message, publicKey)).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('any single-character change to the payload makes it fail', () => {
    const { privateKey, publicKey } = generateEd25519KeyPair(new Uint8Array(32).fill(4));
    // Changes are made per code point on well-formed text: UTF-8 maps every lone surrogate to
    // U+FFFD, so swapping one lone surrogate for another would not change the signed bytes.
    const codePoint = fc.integer({ min: 0, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff);
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
        fc.nat(),
        codePoint,
        (message, position, replacement) => {
          const points = Array.from(message);
          const index = position % points.length;
          const next = String.fromCodePoint(replacement);
          fc.pre(points[index] !== next);
          const signature = signEd25519(message, privateKey);
          points[index] = next;
          expect(verifyEd25519(signature, points.join(''), publicKey)).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('Ed25519 mixed-order public keys', () => {
  // A key A + T (T of order 8): whoever holds A's secret a signs for it with S = r + k·a,
  // k = SHA-512(R ‖ A+T ‖ M) mod L, which the cofactored equation accepts. Computed with
  // noble's point arithmetic from the seed 0x1f × 32 (see the fixture below).
  const seed = new Uint8Array(32).fill(31);
  const torsion = ed25519.Point.fromHex(
    'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  );
  const honest = generateEd25519KeyPair(seed).publicKey;
  const mixed = ed25519.Point.fromBytes(honest).add(torsion).toBytes();
  const forged =
    '17ffad8068dc0de9935d36636f3ad1b5de6de3413b12388e453b05f2a4c1d3dba11cc4c9c0e98f2d4767a3eff8904a415407876209bf493dde4d87374962200f';

  it('the fixture is what it says: a mixed-order key and a signature noble alone accepts', () => {
    expect(torsion.isSmallOrder()).toBe(true);
    expect(ed25519.verify(hexToBytes(forged), new TextEncoder().encode('aa:bb'), mixed)).toBe(true);
  });

  it('are refused: the key is not torsion-free and nothing verifies under it', () => {
    expect(isTorsionFreePublicKey(honest)).toBe(true);
    expect(isTorsionFreePublicKey(mixed)).toBe(false);
    expect(isTorsionFreePublicKey(torsion.toBytes())).toBe(false);
    expect(verifyEd25519(forged, 'aa:bb', mixed)).toBe(false);
  });
});
