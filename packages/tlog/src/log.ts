// A log as a list of record heads in append order: tree heads and proofs over it. Pure: the
// caller keeps the list wherever it likes (the CLI in a file, the API in its database).
import { rootHash, inclusionProof, consistencyProof } from './tree.js';
import { TlogError } from './errors.js';
import { recordLeafHash, type RecordHead } from './record-head.js';

/** Size and root of the tree of the first `size` heads. */
export interface TreeHead {
  readonly size: number;
  readonly root: Uint8Array;
}

/** The leaf hashes of heads, in order. */
export function leafHashesOf(heads: readonly RecordHead[]): Uint8Array[] {
  return heads.map(recordLeafHash);
}

/** The tree head of the first `size` heads (default: all). */
export function treeHeadOf(heads: readonly RecordHead[], size: number = heads.length): TreeHead {
  if (!Number.isSafeInteger(size) || size < 0 || size > heads.length) {
    throw new TlogError(
      'ARG_OUT_OF_RANGE',
      `expected a tree size from 0 to ${heads.length}, got ${size}`,
    );
  }
  return { size, root: rootHash(leafHashesOf(heads.slice(0, size))) };
}

/** The index of the head logged for `runId`, or -1. */
export function indexOfRun(heads: readonly RecordHead[], runId: string): number {
  return heads.findIndex((h) => h.run_id === runId);
}

/** The inclusion proof of head `index` in the tree of the first `size` heads. */
export function proveInclusion(
  heads: readonly RecordHead[],
  index: number,
  size: number = heads.length,
): Uint8Array[] {
  return inclusionProof(leafHashesOf(heads), index, size);
}

/** The consistency proof from the tree of `size1` heads to that of `size2`. */
export function proveConsistency(
  heads: readonly RecordHead[],
  size1: number,
  size2: number = heads.length,
): Uint8Array[] {
  return consistencyProof(leafHashesOf(heads), size1, size2);
}
