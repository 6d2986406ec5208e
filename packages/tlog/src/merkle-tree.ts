// An append-only Merkle tree that remembers the root of every complete subtree — the subtree
// of 2^k leaves starting at a multiple of 2^k — as leaves arrive. Every range the RFC 9162
// algorithms ask for (MTH §2.1.1, PATH §2.1.3.1, SUBPROOF §2.1.4.1) splits into such
// subtrees, so a root or a proof costs O(log² n) node hashes instead of rehashing n leaves:
// what a long-lived log (the audit API's) needs. tree.ts computes the same values from a list.
import { expectBytes, expectSize, TlogError } from './errors.js';
import { EMPTY_ROOT, HASH_SIZE, nodeHash } from './hash.js';
import { pathOf, splitPoint, subproofOf } from './tree.js';

/** A growing list of 32-byte hashes in one buffer (no object per hash). */
class HashList {
  #bytes = new Uint8Array(HASH_SIZE * 64);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(hash: Uint8Array): void {
    if ((this.#length + 1) * HASH_SIZE > this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes.set(hash, this.#length * HASH_SIZE);
    this.#length++;
  }

  /** A copy of hash `i`. */
  at(i: number): Uint8Array {
    return this.#bytes.slice(i * HASH_SIZE, (i + 1) * HASH_SIZE);
  }
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

export class MerkleTree {
  /** levels[k] holds the roots of the complete subtrees of 2^k leaves, left to right. */
  readonly #levels: HashList[] = [new HashList()];

  /** The number of leaves. */
  get size(): number {
    return (this.#levels[0] as HashList).length;
  }

  /**
   * Appends a leaf hash (RFC 9162 §2.1.1: SHA-256 of 0x00 and the leaf data).
   *
   * @throws {TlogError} `ARG_INVALID_TYPE` unless `leaf` is 32 bytes.
   */
  append(leaf: Uint8Array): void {
    const hash = expectBytes(leaf, 'leaf hash');
    if (hash.length !== HASH_SIZE) {
      throw new TlogError(
        'ARG_INVALID_TYPE',
        `leaf hash: expected ${HASH_SIZE} bytes, got ${hash.length}`,
      );
    }
    let carry = hash;
    for (let k = 0; ; k++) {
      const level = (this.#levels[k] ??= new HashList());
      level.push(carry);
      // A subtree closes when this level gets its even-numbered (second) member.
      if (level.length % 2 === 1) return;
      carry = nodeHash(level.at(level.length - 2), carry);
    }
  }

  /** MTH of leaves [start, end), a non-empty range of the tree. */
  readonly #range = (start: number, end: number): Uint8Array => {
    const n = end - start;
    if (isPowerOfTwo(n) && start % n === 0) {
      const k = Math.log2(n);
      return (this.#levels[k] as HashList).at(start / n);
    }
    const k = splitPoint(n);
    return nodeHash(this.#range(start, start + k), this.#range(start + k, end));
  };

  #expectSize(size: number, label: string): number {
    expectSize(size, label);
    if (size > this.size) {
      throw new TlogError(
        'ARG_OUT_OF_RANGE',
        `${label}: expected at most the ${this.size} leaves of the tree, got ${size}`,
      );
    }
    return size;
  }

  /** MTH of the first `size` leaves (default: all). */
  root(size: number = this.size): Uint8Array {
    this.#expectSize(size, 'tree size');
    return size === 0 ? EMPTY_ROOT : this.#range(0, size);
  }

  /**
   * The root the tree would have with `leaf` appended, without appending it (for a writer
   * that signs the new root before it commits the leaf).
   */
  rootWith(leaf: Uint8Array): Uint8Array {
    const size = this.size;
    if (size === 0) return leaf;
    // The new tree's root: its left part of k leaves is a subtree of this tree.
    const k = splitPoint(size + 1);
    return nodeHash(this.#range(0, k), this.#rootOfTail(k, size + 1, leaf));
  }

  /** MTH of [start, end) where the last leaf, at end - 1, is `leaf` (not yet in the tree). */
  #rootOfTail(start: number, end: number, leaf: Uint8Array): Uint8Array {
    const n = end - start;
    if (n === 1) return leaf;
    const k = splitPoint(n);
    return nodeHash(this.#range(start, start + k), this.#rootOfTail(start + k, end, leaf));
  }

  /**
   * PATH(index, D[0:size]) (RFC 9162 §2.1.3.1), as `inclusionProof` of tree.ts gives it.
   *
   * @throws {TlogError} `ARG_OUT_OF_RANGE` unless index < size <= the tree's size.
   */
  inclusionProof(index: number, size: number = this.size): Uint8Array[] {
    expectSize(index, 'leaf index');
    this.#expectSize(size, 'tree size');
    if (index >= size) {
      throw new TlogError(
        'ARG_OUT_OF_RANGE',
        `expected leaf index < tree size, got index ${index} and size ${size}`,
      );
    }
    return pathOf(this.#range, index, size);
  }

  /**
   * PROOF(size1, D[0:size2]) (RFC 9162 §2.1.4.1), as `consistencyProof` of tree.ts gives it.
   *
   * @throws {TlogError} `ARG_OUT_OF_RANGE` unless 0 < size1 <= size2 <= the tree's size.
   */
  consistencyProof(size1: number, size2: number = this.size): Uint8Array[] {
    expectSize(size1, 'old tree size');
    this.#expectSize(size2, 'new tree size');
    if (size1 === 0 || size1 > size2) {
      throw new TlogError(
        'ARG_OUT_OF_RANGE',
        `expected 0 < old size <= new size, got old size ${size1} and new size ${size2}`,
      );
    }
    return subproofOf(this.#range, size1, size2);
  }
}
