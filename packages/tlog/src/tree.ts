// Merkle tree heads and proofs generated from the list of leaf hashes, as RFC 9162 defines
// them: MTH (§2.1.1), PATH for inclusion proofs (§2.1.3.1) and SUBPROOF for consistency
// proofs (§2.1.4.1). Each split puts the largest power of two smaller than n on the left.
import { TlogError, expectSize } from './errors.js';
import { EMPTY_ROOT, nodeHash } from './hash.js';

/** The largest power of two strictly smaller than n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * MTH(D[start:end]) for a non-empty range [start, end). The proofs below ask only for ranges
 * of the RFC's own splits, so a caller that remembers subtree roots (merkle-tree.ts) can
 * answer them without rehashing the leaves.
 */
export type RangeRoot = (start: number, end: number) => Uint8Array;

/** MTH(D[0:n]) of leaf hashes (RFC 9162 §2.1.1). */
export function rootHash(leaves: readonly Uint8Array[]): Uint8Array {
  return leaves.length === 0 ? EMPTY_ROOT : subtreeRoot(leaves, 0, leaves.length);
}

/** MTH of leaves[start, end) for a non-empty range. */
function subtreeRoot(leaves: readonly Uint8Array[], start: number, end: number): Uint8Array {
  if (end - start === 1) return leaves[start] as Uint8Array;
  const k = splitPoint(end - start);
  return nodeHash(subtreeRoot(leaves, start, start + k), subtreeRoot(leaves, start + k, end));
}

/**
 * The inclusion proof PATH(index, D[0:size]) (RFC 9162 §2.1.3.1): the sibling hashes from the
 * leaf up to the root of the tree of the first `size` leaves.
 *
 * @throws {TlogError} `ARG_OUT_OF_RANGE` unless index < size <= leaves.length.
 */
export function inclusionProof(
  leaves: readonly Uint8Array[],
  index: number,
  size: number = leaves.length,
): Uint8Array[] {
  expectSize(index, 'leaf index');
  expectSize(size, 'tree size');
  if (size > leaves.length || index >= size) {
    throw new TlogError(
      'ARG_OUT_OF_RANGE',
      `expected leaf index < tree size <= ${leaves.length} leaves, got index ${index} and size ${size}`,
    );
  }
  return pathOf((start, end) => subtreeRoot(leaves, start, end), index, size);
}

/** PATH(m, D[0:size]) with subtree roots from `root` (arguments already checked). */
export function pathOf(root: RangeRoot, m: number, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  path(root, m, 0, size, out);
  return out;
}

function path(root: RangeRoot, m: number, start: number, end: number, out: Uint8Array[]): void {
  const n = end - start;
  if (n <= 1) return;
  const k = splitPoint(n);
  if (m < k) {
    path(root, m, start, start + k, out);
    out.push(root(start + k, end));
  } else {
    path(root, m - k, start + k, end, out);
    out.push(root(start, start + k));
  }
}

/**
 * The consistency proof PROOF(size1, D[0:size2]) (RFC 9162 §2.1.4.1) between the tree of the
 * first `size1` leaves and the tree of the first `size2`. Empty when size1 equals size2.
 *
 * @throws {TlogError} `ARG_OUT_OF_RANGE` unless 0 < size1 <= size2 <= leaves.length.
 */
export function consistencyProof(
  leaves: readonly Uint8Array[],
  size1: number,
  size2: number = leaves.length,
): Uint8Array[] {
  expectSize(size1, 'old tree size');
  expectSize(size2, 'new tree size');
  if (size1 === 0 || size1 > size2 || size2 > leaves.length) {
    throw new TlogError(
      'ARG_OUT_OF_RANGE',
      `expected 0 < old size <= new size <= ${leaves.length} leaves, got old size ${size1} and new size ${size2}`,
    );
  }
  return subproofOf((start, end) => subtreeRoot(leaves, start, end), size1, size2);
}

/** PROOF(size1, D[0:size2]) with subtree roots from `root` (arguments already checked). */
export function subproofOf(root: RangeRoot, size1: number, size2: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  if (size1 < size2) subproof(root, size1, 0, size2, true, out);
  return out;
}

function subproof(
  root: RangeRoot,
  m: number,
  start: number,
  end: number,
  complete: boolean,
  out: Uint8Array[],
): void {
  const n = end - start;
  if (m === n) {
    // The old tree is this whole subtree: its root is known to the verifier only when the
    // subtree is the old tree itself (b = true), otherwise it is part of the proof.
    if (!complete) out.push(root(start, end));
    return;
  }
  const k = splitPoint(n);
  if (m <= k) {
    subproof(root, m, start, start + k, complete, out);
    out.push(root(start + k, end));
  } else {
    subproof(root, m - k, start + k, end, false, out);
    out.push(root(start, start + k));
  }
}
