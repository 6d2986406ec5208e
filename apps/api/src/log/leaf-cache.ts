// The Merkle tree of the log, kept in memory by each API process (@runback/tlog's MerkleTree:
// roots and proofs in O(log² n) hashes). Leaves are append-only (the database refuses UPDATE
// and DELETE, migrations.ts), so a prefix read once stays true; each use reads only the
// leaves added since, by any process.
import { MerkleTree } from '@runback/tlog';
import type { LogReader } from '../store/types.js';
import { fromHex } from './hex.js';

const PAGE = 5000;

export class LeafCache {
  readonly tree = new MerkleTree();

  /** Reads the leaves below `size` that are not in the tree yet. */
  async fill(reader: LogReader, size: number): Promise<void> {
    while (this.tree.size < size) {
      const from = this.tree.size;
      const page = await reader.logLeafHashes(from, Math.min(PAGE, size - from));
      // Requests of one process fill the tree concurrently: a page read while another
      // request extended the tree is dropped, never appended twice.
      if (this.tree.size !== from) continue;
      if (page.length === 0) {
        throw new Error(`expected ${size} log leaves in the database, got ${from}`);
      }
      for (const hex of page) this.tree.append(fromHex(hex));
    }
  }

  /** Adds the leaf just committed at index `index` (when the tree reaches that far). */
  committed(index: number, hash: Uint8Array): void {
    if (this.tree.size === index) this.tree.append(hash);
  }
}
