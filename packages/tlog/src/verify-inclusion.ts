// Inclusion proof verification, RFC 9162 §2.1.3.2: walk from the leaf hash to the root,
// using the bits of the leaf index (fn) and of the last index (sn) to decide on which side
// each proof hash sits, and require the walk to end exactly at the root of the tree.
import { describeValue, expectBytes, expectNumber, isSize, TlogError } from './errors.js';
import { bytesEqual, HASH_SIZE, nodeHash } from './hash.js';
import { PROOF_OK, proofFailure, type ProofCheck } from './proof-check.js';

/** The inputs of an inclusion check. */
export interface InclusionInput {
  readonly leafIndex: number;
  readonly treeSize: number;
  readonly leafHash: Uint8Array;
  readonly proof: readonly Uint8Array[];
  readonly root: Uint8Array;
}

/**
 * Checks that `leafHash` is leaf `leafIndex` of the tree of `treeSize` leaves whose root is
 * `root`. Returns `{ ok: true }` or the reason it is not.
 *
 * @throws {TlogError} for arguments of the wrong type (not for a wrong proof).
 */
export function verifyInclusion(input: InclusionInput): ProofCheck {
  const index = expectNumber(input.leafIndex, 'leaf index');
  const size = expectNumber(input.treeSize, 'tree size');
  const leaf = expectBytes(input.leafHash, 'leaf hash');
  const root = expectBytes(input.root, 'root');
  const proof = expectHashList(input.proof);
  if (!isSize(index) || !isSize(size) || index >= size) {
    return proofFailure(
      'PROOF_INDEX_OUT_OF_RANGE',
      `expected a leaf index below the tree size ${size}, got ${index}`,
    );
  }
  if (leaf.length !== HASH_SIZE || root.length !== HASH_SIZE) {
    return proofFailure(
      'PROOF_MALFORMED_HASH',
      `expected a ${HASH_SIZE}-byte leaf hash and root, got ${leaf.length} and ${root.length} bytes`,
    );
  }
  const malformed = proof.findIndex((h) => h.length !== HASH_SIZE);
  if (malformed !== -1) {
    return proofFailure(
      'PROOF_MALFORMED_HASH',
      `expected proof hash ${malformed} to be ${HASH_SIZE} bytes, got ${proof[malformed]?.length ?? 0}`,
    );
  }
  const walked = rootFromInclusionProof(index, size, leaf, proof);
  if (walked === null) {
    return proofFailure(
      'PROOF_WRONG_LENGTH',
      `expected ${inclusionProofLength(index, size)} proof hashes for leaf ${index} of ${size}, got ${proof.length}`,
    );
  }
  if (!bytesEqual(walked, root)) {
    return proofFailure(
      'PROOF_ROOT_MISMATCH',
      'expected the proof to lead to the given root, got a different root',
    );
  }
  return PROOF_OK;
}

/** The root an inclusion proof leads to, or null when its length does not fit the tree. */
function rootFromInclusionProof(
  index: number,
  size: number,
  leaf: Uint8Array,
  proof: readonly Uint8Array[],
): Uint8Array | null {
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      // A right-edge node with no right sibling: climb until this node is a right child.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/** How many hashes an inclusion proof for leaf `index` of a tree of `size` holds. */
export function inclusionProofLength(index: number, size: number): number {
  let fn = index;
  let sn = size - 1;
  let count = 0;
  while (sn > 0) {
    if (fn % 2 === 1 || fn === sn) {
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
    count++;
  }
  return count;
}

/** Checks that a proof is an array of byte strings. */
export function expectHashList(value: unknown): readonly Uint8Array[] {
  if (!Array.isArray(value)) {
    throw new TlogError(
      'ARG_INVALID_TYPE',
      `proof: expected an array of Uint8Array, got ${describeValue(value)}`,
    );
  }
  value.forEach((h: unknown, i) => expectBytes(h, `proof hash ${i}`));
  return value as readonly Uint8Array[];
}
