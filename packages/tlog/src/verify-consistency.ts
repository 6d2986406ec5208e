// Consistency proof verification, RFC 9162 §2.1.4.2: from one proof, rebuild both the old
// root and the new root; both must match, which proves the new tree holds the old tree's
// leaves unchanged as its prefix (the log only grew).
//
// An old tree of size 0 is refused (PROOF_SIZES_INVALID): RFC 9162 defines proofs only for
// 0 < size1 < size2, and "every tree extends the empty tree" proves nothing a caller could
// rely on. Equal sizes need an empty proof and equal roots.
import { expectBytes, expectNumber, isSize } from './errors.js';
import { bytesEqual, HASH_SIZE, nodeHash } from './hash.js';
import { PROOF_OK, proofFailure, type ProofCheck } from './proof-check.js';
import { expectHashList } from './verify-inclusion.js';

/** The inputs of a consistency check. */
export interface ConsistencyInput {
  readonly size1: number;
  readonly size2: number;
  readonly root1: Uint8Array;
  readonly root2: Uint8Array;
  readonly proof: readonly Uint8Array[];
}

/**
 * Checks that the tree of `size2` leaves with root `root2` extends the tree of `size1` leaves
 * with root `root1`. Returns `{ ok: true }` or the reason it does not.
 *
 * @throws {TlogError} for arguments of the wrong type (not for a wrong proof).
 */
export function verifyConsistency(input: ConsistencyInput): ProofCheck {
  const size1 = expectNumber(input.size1, 'old tree size');
  const size2 = expectNumber(input.size2, 'new tree size');
  const root1 = expectBytes(input.root1, 'old root');
  const root2 = expectBytes(input.root2, 'new root');
  const proof = expectHashList(input.proof);
  if (!isSize(size1) || !isSize(size2)) {
    return proofFailure(
      'PROOF_SIZES_INVALID',
      `expected tree sizes to be safe integers >= 0, got ${size1} and ${size2}`,
    );
  }
  if (size1 > size2) {
    return proofFailure(
      'PROOF_SIZES_INVALID',
      `expected the old size to be at most the new size ${size2}, got ${size1}`,
    );
  }
  if (size1 === 0) {
    return proofFailure(
      'PROOF_SIZES_INVALID',
      'expected an old tree of at least one leaf, got the empty tree (nothing to be consistent with)',
    );
  }
  if (size1 === size2) {
    if (proof.length !== 0) {
      return proofFailure(
        'PROOF_WRONG_LENGTH',
        `expected an empty proof between trees of equal size, got ${proof.length} hashes`,
      );
    }
    return bytesEqual(root1, root2)
      ? PROOF_OK
      : proofFailure(
          'PROOF_ROOT_MISMATCH',
          'expected equal roots for trees of equal size, got two different roots',
        );
  }
  if (proof.length === 0) {
    return proofFailure(
      'PROOF_WRONG_LENGTH',
      `expected a non-empty proof from size ${size1} to size ${size2}, got none`,
    );
  }
  const malformed = proof.findIndex((h) => h.length !== HASH_SIZE);
  if (malformed !== -1) {
    return proofFailure(
      'PROOF_MALFORMED_HASH',
      `expected proof hash ${malformed} to be ${HASH_SIZE} bytes, got ${proof[malformed]?.length ?? 0}`,
    );
  }

  // When size1 is a power of two the old tree is a complete left subtree, its root is not in
  // the proof, and the walk starts from root1 itself.
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0] as Uint8Array;
  let sr = fr;
  for (const c of path.slice(1)) {
    if (sn === 0) return wrongLength(size1, size2, proof.length);
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) return wrongLength(size1, size2, proof.length);
  if (!bytesEqual(fr, root1)) {
    return proofFailure(
      'PROOF_ROOT_MISMATCH',
      'expected the proof to rebuild the old root, got a different root',
    );
  }
  if (!bytesEqual(sr, root2)) {
    return proofFailure(
      'PROOF_ROOT_MISMATCH',
      'expected the proof to rebuild the new root, got a different root',
    );
  }
  return PROOF_OK;
}

function wrongLength(size1: number, size2: number, got: number): ProofCheck {
  return proofFailure(
    'PROOF_WRONG_LENGTH',
    `expected a proof whose length fits sizes ${size1} and ${size2}, got ${got} hashes`,
  );
}

function isPowerOfTwo(n: number): boolean {
  let x = n;
  while (x > 1 && x % 2 === 0) x /= 2;
  return x === 1;
}
