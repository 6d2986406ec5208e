// Properties of the Merkle algebra: every generated proof verifies, and any change to the
// leaf, the index, a proof hash or the root makes it fail. (A proof can also fit a tree of
// another size whose path has the same shape; the size is bound by the signed checkpoint.)
import fc from 'fast-check';
import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { leafHash, nodeHash } from './hash.js';
import { consistencyProof, inclusionProof, rootHash } from './tree.js';
import { verifyConsistency } from './verify-consistency.js';
import { verifyInclusion } from './verify-inclusion.js';

const leavesArb = fc
  .array(fc.uint8Array({ maxLength: 12 }), { minLength: 1, maxLength: 40 })
  .map((data) => data.map((d, i) => leafHash(new Uint8Array([...d, i]))));

const flip = (h: Uint8Array, bit: number): Uint8Array => {
  const out = new Uint8Array(h);
  const at = (bit >> 3) % out.length;
  out[at] = (out[at] ?? 0) ^ (1 << (bit & 7));
  return out;
};

/** An independent MTH: pair up levels left to right, carrying an odd last node up. */
function levelRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha256(new Uint8Array(0));
  let level = [...leaves];
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(nodeHash(level[i]!, level[i + 1]!));
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    level = next;
  }
  return level[0]!;
}

describe('Merkle tree properties', () => {
  it('rootHash agrees with a level-by-level construction', () => {
    fc.assert(
      fc.property(leavesArb, (leaves) => {
        expect(rootHash(leaves)).toEqual(levelRoot(leaves));
      }),
    );
  });

  it('every inclusion proof verifies, and every mutation is rejected', () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), fc.nat(), (leaves, a, b, bit) => {
        const size = 1 + (a % leaves.length);
        const index = b % size;
        const root = rootHash(leaves.slice(0, size));
        const proof = inclusionProof(leaves, index, size);
        const leaf = leaves[index]!;
        expect(
          verifyInclusion({ leafIndex: index, treeSize: size, leafHash: leaf, proof, root }).ok,
        ).toBe(true);
        expect(
          verifyInclusion({
            leafIndex: index,
            treeSize: size,
            leafHash: flip(leaf, bit),
            proof,
            root,
          }).ok,
        ).toBe(false);
        expect(
          verifyInclusion({
            leafIndex: index,
            treeSize: size,
            leafHash: leaf,
            proof,
            root: flip(root, bit),
          }).ok,
        ).toBe(false);
        if (size > 1) {
          const other = (index + 1 + (bit % (size - 1))) % size;
          expect(
            verifyInclusion({ leafIndex: other, treeSize: size, leafHash: leaf, proof, root }).ok,
          ).toBe(false);
        }
        if (proof.length > 0) {
          const at = bit % proof.length;
          const mutated = proof.map((p, i) => (i === at ? flip(p, bit) : p));
          expect(
            verifyInclusion({
              leafIndex: index,
              treeSize: size,
              leafHash: leaf,
              proof: mutated,
              root,
            }).ok,
          ).toBe(false);
          expect(
            verifyInclusion({
              leafIndex: index,
              treeSize: size,
              leafHash: leaf,
              proof: proof.slice(1),
              root,
            }).ok,
          ).toBe(false);
        }
        expect(
          verifyInclusion({
            leafIndex: index,
            treeSize: size,
            leafHash: leaf,
            proof: [...proof, leaf],
            root,
          }).ok,
        ).toBe(false);
      }),
    );
  });

  it('every consistency proof verifies, and every mutation is rejected', () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), fc.nat(), (leaves, a, b, bit) => {
        const size2 = 1 + (a % leaves.length);
        const size1 = 1 + (b % size2);
        const root1 = rootHash(leaves.slice(0, size1));
        const root2 = rootHash(leaves.slice(0, size2));
        const proof = consistencyProof(leaves, size1, size2);
        expect(verifyConsistency({ size1, size2, root1, root2, proof }).ok).toBe(true);
        expect(verifyConsistency({ size1, size2, root1: flip(root1, bit), root2, proof }).ok).toBe(
          false,
        );
        expect(verifyConsistency({ size1, size2, root1, root2: flip(root2, bit), proof }).ok).toBe(
          false,
        );
        if (proof.length > 0) {
          const at = bit % proof.length;
          const mutated = proof.map((p, i) => (i === at ? flip(p, bit) : p));
          expect(verifyConsistency({ size1, size2, root1, root2, proof: mutated }).ok).toBe(false);
          expect(
            verifyConsistency({ size1, size2, root1, root2, proof: proof.slice(0, -1) }).ok,
          ).toBe(false);
        }
      }),
    );
  });

  it('a rewritten leaf breaks consistency with the old tree', () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), (leaves, a, bit) => {
        fc.pre(leaves.length >= 2);
        const size1 = 1 + (a % (leaves.length - 1));
        const root1 = rootHash(leaves.slice(0, size1));
        const rewritten = leaves.map((l, i) => (i === bit % size1 ? flip(l, bit) : l));
        const proof = consistencyProof(rewritten, size1);
        const root2 = rootHash(rewritten);
        expect(verifyConsistency({ size1, size2: leaves.length, root1, root2, proof }).ok).toBe(
          false,
        );
      }),
    );
  });
});
