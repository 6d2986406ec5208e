// The leaf hashes of the log, kept in memory by each API process. Leaves are append-only (the
// database refuses UPDATE and DELETE, migrations.ts), so a prefix read once stays true; each
// use reads only the leaves added since, by any process.
import type { LogReader } from '../store/types.js';
import { fromHex } from './hex.js';

const PAGE = 5000;

export class LeafCache {
  readonly #hashes: Uint8Array[] = [];

  /** The cached leaf hashes; at least `size` of them after `fill(reader, size)`. */
  get hashes(): readonly Uint8Array[] {
    return this.#hashes;
  }

  /** Reads the leaves below `size` that are not cached yet. */
  async fill(reader: LogReader, size: number): Promise<void> {
    while (this.#hashes.length < size) {
      const from = this.#hashes.length;
      const page = await reader.logLeafHashes(from, Math.min(PAGE, size - from));
      // Requests of one process fill the cache concurrently: a page read while another
      // request extended the cache is dropped, never appended twice.
      if (this.#hashes.length !== from) continue;
      if (page.length === 0) {
        throw new Error(`expected ${size} log leaves in the database, got ${from}`);
      }
      for (const hex of page) this.#hashes.push(fromHex(hex));
    }
  }

  /** Adds the leaf just committed at index `index` (when the cache reaches that far). */
  committed(index: number, hash: Uint8Array): void {
    if (this.#hashes.length === index) this.#hashes.push(hash);
  }
}
