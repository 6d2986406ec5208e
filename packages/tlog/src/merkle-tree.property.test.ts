// The incremental tree gives exactly the roots and proofs tree.ts computes from the list of
// leaves, for every size, index and pair of sizes (tree.ts itself passes the RFC 6962 corpus).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TlogError } from './errors.js';
import { leafHash } from './hash.js';
import { MerkleTree } from './merkle-tree.js';
import { consistencyProof, inclusionProof, rootHash } from './tree.js';

const leavesArb = fc
  .array(fc.uint8Array({ maxLength: 8 }), { minLength: 0, maxLength: 70 })
  .map((data) => data.map((d, i) => leafHash(new Uint8Array([...d, i & 0xff, i >> 8]))));

function treeOf(leaves: readonly Uint8Array[]): MerkleTree {
  const tree = new MerkleTree();
  for (const leaf of leaves) tree.append(leaf);
  return tree;
}

describe('MerkleTree', () => {
  it('has the root of every prefix, and rootWith is the root after the next append', () => {
    fc.assert(
      fc.property(leavesArb, (leaves) => {
        const tree = new MerkleTree();
        expect(tree.root()).toEqual(rootHash([]));
        for (const [i, leaf] of leaves.entries()) {
          const predicted = tree.rootWith(leaf);
          tree.append(leaf);
          expect(tree.size).toBe(i + 1);
          expect(predicted).toEqual(rootHash(leaves.slice(0, i + 1)));
        }
        for (let size = 0; size <= leaves.length; size++)
          expect(tree.root(size)).toEqual(rootHash(leaves.slice(0, size)));
      }),
      { numRuns: 60 },
    );
  });

  it('gives the inclusion and consistency proofs of tree.ts for every index and size', () => {
    fc.assert(
      fc.property(leavesArb, (leaves) => {
        const tree = treeOf(leaves);
        for (let size = 1; size <= leaves.length; size++) {
          for (let index = 0; index < size; index++)
            expect(tree.inclusionProof(index, size)).toEqual(inclusionProof(leaves, index, size));
          for (let old = 1; old <= size; old++)
            expect(tree.consistencyProof(old, size)).toEqual(consistencyProof(leaves, old, size));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('refuses sizes beyond the tree and leaves that are not 32 bytes', () => {
    const tree = treeOf([leafHash(new Uint8Array([1])), leafHash(new Uint8Array([2]))]);
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof TlogError ? err.code : 'other';
      }
      return 'none';
    };
    expect(codeOf(() => tree.root(3))).toBe('ARG_OUT_OF_RANGE');
    expect(codeOf(() => tree.inclusionProof(2, 2))).toBe('ARG_OUT_OF_RANGE');
    expect(codeOf(() => tree.consistencyProof(0, 2))).toBe('ARG_OUT_OF_RANGE');
    expect(codeOf(() => tree.consistencyProof(1, 3))).toBe('ARG_OUT_OF_RANGE');
    expect(codeOf(() => tree.append(new Uint8Array(31)))).toBe('ARG_INVALID_TYPE');
    expect(tree.size).toBe(2);
  });
});
