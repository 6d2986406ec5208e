// The Ed25519 assembled in ./ed25519-curve.ts against noble's own `ed25519.js` entry (the
// reference here, loaded only by this test): the same constants, the same square roots, and
// the same decision on every point encoding and every signature, honest or crafted.
import { ed25519 as reference } from '@noble/curves/ed25519.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readVectorJson, sharedVectorsDir } from '../../../test-support/vectors.js';
import { ed25519, powPMinus5Over8, sqrtRatio, SQRT_MINUS_ONE } from './ed25519-curve.js';
import { verifyEd25519 } from './ed25519.js';

const P = 2n ** 255n - 19n;
const field = fc.bigInt({ min: 0n, max: P - 1n });

/** Plain square-and-multiply, for comparison with the addition chain. */
function powMod(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = base % P;
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

const decodes = (curve: typeof ed25519, bytes: Uint8Array, zip215: boolean): string | null => {
  try {
    return curve.Point.fromBytes(bytes, zip215).toHex();
  } catch {
    return null;
  }
};

describe('Ed25519 curve constants and field arithmetic', () => {
  it('has the constants of RFC 8032 §5.1', () => {
    const ours = ed25519.Point.CURVE();
    const theirs = reference.Point.CURVE();
    expect(ours).toEqual(theirs);
    // d = −121665/121666 and Gy = 4/5, recomputed from their definitions.
    const inv = (x: bigint) => powMod(x, P - 2n);
    expect(ours.d).toBe((P - ((121665n * inv(121666n)) % P)) % P);
    expect(ours.Gy).toBe((4n * inv(5n)) % P);
    expect(ed25519.Point.BASE.toHex()).toBe(reference.Point.BASE.toHex());
  });

  it('√−1 squares to −1 and is 2^((p−1)/4)', () => {
    expect((SQRT_MINUS_ONE * SQRT_MINUS_ONE) % P).toBe(P - 1n);
    expect(powMod(2n, (P - 1n) / 4n)).toBe(SQRT_MINUS_ONE);
  });

  it('the addition chain computes x^((p−5)/8)', () => {
    fc.assert(
      fc.property(field, (x) => {
        expect(powPMinus5Over8(x)).toBe(powMod(x, (P - 5n) / 8n));
      }),
      { numRuns: 50 },
    );
  });

  it('sqrtRatio finds the even root of u/v exactly when one exists', () => {
    fc.assert(
      fc.property(field, fc.bigInt({ min: 1n, max: P - 1n }), (u, v) => {
        const { isValid, value } = sqrtRatio(u, v);
        const square = (v * value * value) % P === u % P;
        expect(isValid).toBe(square);
        // Euler's criterion: u/v is a square (or 0) iff (u·v)^((p−1)/2) is 0 or 1.
        const euler = powMod((u * v) % P, (P - 1n) / 2n);
        expect(isValid).toBe(euler === 0n || euler === 1n);
        if (isValid) expect(value & 1n).toBe(0n);
      }),
      { numRuns: 100 },
    );
  });
});

describe('Ed25519 assembled from the EdDSA code agrees with noble ed25519.js', () => {
  it('decodes every 32-byte string the same way, strict and ZIP-215', () => {
    const special = [
      new Uint8Array(32), // y = 0
      Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0)), // identity
      Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 0x80 : i === 0 ? 1 : 0)), // −0 x
      Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? 0x7f : 0xff)), // y = 2^255 − 1
      Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 0xed : i === 31 ? 0x7f : 0xff)), // y = p
      Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 0xec : i === 31 ? 0x7f : 0xff)), // y = p − 1
    ];
    for (const bytes of special) {
      for (const zip215 of [false, true]) {
        expect(decodes(ed25519, bytes, zip215)).toBe(decodes(reference, bytes, zip215));
      }
    }
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), (bytes, zip) => {
        expect(decodes(ed25519, bytes, zip)).toBe(decodes(reference, bytes, zip));
      }),
      { numRuns: 300 },
    );
  });

  it('derives the same keys and signatures', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 100 }),
        (seed, message) => {
          const pub = ed25519.getPublicKey(seed);
          expect(pub).toEqual(reference.getPublicKey(seed));
          const sig = ed25519.sign(message, seed);
          expect(sig).toEqual(reference.sign(message, seed));
          expect(ed25519.verify(sig, message, pub)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  const vectorsDir = sharedVectorsDir();
  const describeVectors = vectorsDir === null ? describe.skip : describe;
  describeVectors('on the shared edge-case vectors', () => {
    interface Speccheck {
      message: string;
      pub_key: string;
      signature: string;
    }
    interface Zip215 {
      vk_bytes: string;
      sig_bytes: string;
    }
    const dir = vectorsDir ?? '';
    const cases: { sig: string; msg: Uint8Array; pub: string }[] = [
      ...readVectorJson<Speccheck[]>(dir, 'ed25519', 'speccheck_cases.json').map((c) => ({
        sig: c.signature,
        msg: hexToBytes(c.message),
        pub: c.pub_key,
      })),
      ...readVectorJson<Zip215[]>(dir, 'ed25519', 'zip215.json').map((c) => ({
        sig: c.sig_bytes,
        msg: new TextEncoder().encode('Zcash'),
        pub: c.vk_bytes,
      })),
    ];

    it('gives the same verdict under both rules on every speccheck and ZIP-215 case', () => {
      expect(cases).toHaveLength(12 + 196);
      for (const c of cases) {
        for (const zip215 of [false, true]) {
          const args = [hexToBytes(c.sig), c.msg, hexToBytes(c.pub), { zip215 }] as const;
          expect(ed25519.verify(...args)).toBe(reference.verify(...args));
        }
      }
    });

    it('verifies strictly when no option is given', () => {
      // Every ZIP-215 case is accepted by ZIP-215 rules and rejected by strict ones.
      const zip = cases.slice(12);
      for (const c of zip) {
        expect(ed25519.verify(hexToBytes(c.sig), c.msg, hexToBytes(c.pub))).toBe(false);
      }
    });
  });
});

describe('verifyEd25519 decides as noble strict verify plus the torsion-free key rule', () => {
  const expected = (sig: Uint8Array, msg: Uint8Array, pub: Uint8Array): boolean => {
    let torsionFree: boolean;
    try {
      torsionFree = reference.Point.fromBytes(pub, false).isTorsionFree();
    } catch {
      torsionFree = false;
    }
    let ok: boolean;
    try {
      ok = reference.verify(sig, msg, pub, { zip215: false });
    } catch {
      ok = false;
    }
    return ok && torsionFree;
  };
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  // The eight points of small order: [L]P is the small-order part of P (times L, a unit mod 8),
  // so walking points P until eight distinct [L]P turn up finds them all.
  const torsion = (() => {
    const found = new Map<string, InstanceType<typeof reference.Point>>();
    const L = reference.Point.Fn.ORDER;
    for (let y = 2; found.size < 8 && y < 4096; y++) {
      const bytes = new Uint8Array(32);
      bytes[0] = y & 0xff;
      bytes[1] = y >> 8;
      try {
        const p = reference.Point.fromBytes(bytes, false);
        const t = p.multiplyUnsafe(L - 1n).add(p);
        found.set(t.toHex(), t);
      } catch {
        // not the y of a point
      }
    }
    return [...found.values()];
  })();

  it('finds the eight small-order points to build crafted cases from', () => {
    expect(torsion).toHaveLength(8);
    expect(torsion.every((t) => t.isSmallOrder())).toBe(true);
  });

  it('agrees on honest, tampered and mixed-order signatures', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 64 }),
        fc.nat(torsion.length - 1),
        fc.nat(torsion.length - 1),
        fc.constantFrom('honest', 'mixed-R', 'mixed-A', 'flip'),
        (seed, msg, ti, tj, shape) => {
          const pub = reference.getPublicKey(seed);
          let sig: Uint8Array = reference.sign(msg, seed);
          let key: Uint8Array = pub;
          const T = torsion[ti] as InstanceType<typeof reference.Point>;
          const U = torsion[tj] as InstanceType<typeof reference.Point>;
          if (shape === 'mixed-R') {
            // R + T: the cofactored equation still holds (noble accepts, as do we).
            const R = reference.Point.fromBytes(sig.subarray(0, 32)).add(T);
            sig = Uint8Array.from([...R.toBytes(), ...sig.subarray(32)]);
          } else if (shape === 'mixed-A') {
            key = reference.Point.fromBytes(pub).add(U).toBytes();
          } else if (shape === 'flip') {
            sig = Uint8Array.from(sig);
            sig[(msg.length * 7) % 64] = (sig[(msg.length * 7) % 64] as number) ^ 1;
          }
          expect(verifyEd25519(hex(sig), msg, key)).toBe(expected(sig, msg, key));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('agrees past the first verifications, once [S]B uses the precomputed table', () => {
    const seed = new Uint8Array(32).fill(9);
    const pub = reference.getPublicKey(seed);
    for (let i = 0; i < 20; i++) {
      const msg = Uint8Array.of(i);
      const sig = reference.sign(msg, seed);
      expect(verifyEd25519(hex(sig), msg, pub)).toBe(true);
      expect(verifyEd25519(hex(sig), Uint8Array.of(i + 1), pub)).toBe(false);
    }
  });
});
