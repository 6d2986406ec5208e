// The per-process Merkle tree of the log: requests that fill it at the same time never
// append a page twice or out of order.
import { describe, expect, it } from 'vitest';
import { rootHash } from '@runback/tlog';
import { LeafCache } from '../src/log/leaf-cache.js';
import type { LogReader } from '../src/store/types.js';

const hex = (i: number) => i.toString(16).padStart(64, '0');

/** A reader over `n` leaves that answers each page after a delay. */
function slowReader(n: number, delays: number[]): LogReader {
  let call = 0;
  return {
    logSize: async () => n,
    logLeafOf: async () => undefined,
    logCheckpoint: async () => undefined,
    async logLeafHashes(from, limit) {
      const wait = delays[call++ % delays.length] ?? 0;
      await new Promise((resolve) => setTimeout(resolve, wait));
      return Array.from({ length: Math.max(0, Math.min(limit, n - from)) }, (_, i) =>
        hex(from + i),
      );
    },
  };
}

describe('LeafCache', () => {
  it('holds each leaf once, in order, however many fills overlap', async () => {
    const cache = new LeafCache();
    const reader = slowReader(12_000, [15, 1, 7, 3]);
    await Promise.all([
      cache.fill(reader, 12_000),
      cache.fill(reader, 7_000),
      cache.fill(reader, 12_000),
      cache.fill(reader, 3),
    ]);
    expect(cache.tree.size).toBe(12_000);
    const leaves = Array.from({ length: 12_000 }, (_, i) => Buffer.from(hex(i), 'hex'));
    expect(cache.tree.root()).toEqual(rootHash(leaves));
  });

  it('says so when the database holds fewer leaves than a checkpoint states', async () => {
    await expect(new LeafCache().fill(slowReader(2, [0]), 3)).rejects.toThrow(
      'expected 3 log leaves in the database, got 2',
    );
  });
});
