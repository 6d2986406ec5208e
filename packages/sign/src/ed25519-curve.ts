// The Ed25519 curve and signature scheme (RFC 8032 §5.1), assembled from @noble/curves'
// generic twisted-Edwards and EdDSA code rather than taken from its `ed25519.js` entry. That
// entry also builds X25519, Ristretto255, hash-to-curve, FROST and OPRF, and importing it loads
// those modules: a verifier that only checks one signature paid for all of them at start-up.
// The arithmetic is noble's own (the same `edwards` and `eddsa` functions its entry uses), so
// every accept/reject decision is the same; this file supplies only what RFC 8032 defines for
// the curve: its constants, the square root used to decode a point, and key clamping.
import { eddsa, edwards } from '@noble/curves/abstract/edwards.js';
import { sha512 } from '@noble/hashes/sha2.js';

/** p = 2^255 − 19, the field prime (RFC 8032 §5.1). */
const P = 2n ** 255n - 19n;

/** The curve of RFC 8032 §5.1: −x² + y² = 1 + d·x²·y² over GF(p), base point B of order L. */
const CURVE = {
  p: P,
  // L = 2^252 + 27742317777372353535851937790883648493, the order of B.
  n: 2n ** 252n + 27742317777372353535851937790883648493n,
  // The cofactor.
  h: 8n,
  // a = −1 mod p.
  a: P - 1n,
  // d = −121665 / 121666 mod p.
  d: 37095705934669439343138083508754565189542113879843219016388785533085940283555n,
  // B = (x, 4/5) with x positive (even), RFC 8032 §5.1.
  Gx: 15112221349535400772501151409588531511454012693041857206046113283949847762202n,
  Gy: 46316835694926478169428394003475163141307993866256225615783033603165251855960n,
} as const;

/** √−1 mod p, that is 2^((p−1)/4) mod p (RFC 8032 §5.1.3, decoding step 3). */
export const SQRT_MINUS_ONE =
  19681161376707505956807079304988542015446066515923890162744021073123829784752n;

const mod = (a: bigint): bigint => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

/** `x` squared `n` times, mod p. */
function squareTimes(x: bigint, n: number): bigint {
  let r = x;
  for (let i = 0; i < n; i++) r = (r * r) % P;
  return r;
}

/**
 * x^((p−5)/8) = x^(2^252 − 3) mod p, by an addition chain: e(k) = x^(2^k − 1) is built from
 * e(m)^(2^n) · e(n) = e(m + n), then x^(2^252 − 3) = e(250)^4 · x.
 */
export function powPMinus5Over8(x: bigint): bigint {
  const join = (high: bigint, shift: number, low: bigint): bigint =>
    (squareTimes(high, shift) * low) % P;
  const e1 = mod(x);
  const e2 = join(e1, 1, e1);
  const e4 = join(e2, 2, e2);
  const e5 = join(e4, 1, e1);
  const e10 = join(e5, 5, e5);
  const e20 = join(e10, 10, e10);
  const e40 = join(e20, 20, e20);
  const e50 = join(e40, 10, e10);
  const e100 = join(e50, 50, e50);
  const e200 = join(e100, 100, e100);
  const e250 = join(e200, 50, e50);
  return join(e250, 2, e1);
}

/**
 * The square root of u/v mod p, as RFC 8032 §5.1.3 step 3 computes it when decoding a point:
 * the candidate x = u·v³·(u·v⁷)^((p−5)/8); if v·x² = u it is a root, if v·x² = −u then x·√−1
 * is, and otherwise u/v is not a square. The root returned is the even one; the decoder picks
 * the sign from the encoding's top bit.
 */
export function sqrtRatio(u: bigint, v: bigint): { isValid: boolean; value: bigint } {
  const v3 = mod(v * v * v);
  const v7 = mod(v3 * v3 * v);
  let x = mod(u * v3 * powPMinus5Over8(mod(u * v7)));
  const vx2 = mod(v * x * x);
  const isValid = vx2 === mod(u) || vx2 === mod(-u);
  if (vx2 !== mod(u)) x = mod(x * SQRT_MINUS_ONE);
  if ((x & 1n) === 1n) x = mod(-x);
  return { isValid, value: x };
}

/**
 * RFC 8032 §5.1.5 step 2: of the hash's first half, the lowest three bits are cleared, the
 * highest bit cleared and the second highest set. Changes and returns the array.
 */
function clamp(bytes: Uint8Array): Uint8Array {
  bytes[0] = (bytes[0] as number) & 0xf8;
  bytes[31] = ((bytes[31] as number) & 0x7f) | 0x40;
  return bytes;
}

/** The curve's points (extended coordinates), with noble's group law. */
export const Point = edwards(CURVE, { uvRatio: sqrtRatio });

/** L, the order of the base point B and of the prime-order subgroup. */
export const L = CURVE.n;

// [s]B in a verification. noble keeps a table of multiples of B (built on first use, about
// three times the work of one multiplication) that makes later multiplications cheap: right for
// signing, and for a process that verifies many signatures, but a one-off `runback verify`
// would build it for a single product. So the first few verifications multiply a copy of B
// that has no table (noble caches tables per point object), and later ones use B itself. The
// products are the same points either way: only the time differs.
const UNTABLED_BASE = Point.fromAffine(Point.BASE.toAffine());
const UNTABLED_USES = 8;
let baseProducts = 0;

/** [s]B for 0 <= s < L, not constant-time (for verification: s is public). */
export function baseTimes(s: bigint): InstanceType<typeof Point> {
  baseProducts++;
  return (baseProducts > UNTABLED_USES ? Point.BASE : UNTABLED_BASE).multiplyUnsafe(s);
}

/**
 * Ed25519 with SHA-512 (RFC 8032 §5.1), strict by default: `zip215: false` decodes R and A by
 * RFC 8032 §5.1.3 (y < p, no negative zero) and rejects a small-order A. Used for keys and
 * signing; ./ed25519.ts verifies with the same points and equation (see verifyStrict there).
 */
export const ed25519 = eddsa(Point, sha512, { adjustScalarBytes: clamp, zip215: false });
