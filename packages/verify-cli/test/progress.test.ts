// Progress of a streamed file on a terminal's stderr (src/progress.ts): nothing for a short
// verification, one line rewritten in place at most every EVERY_MS, the file name escaped, and
// the line wiped when done; verifyFile tells it the bytes read of a streamed file.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyJson } from '@runback/verify';
import { CORPUS_DIR } from '../../../test-support/corpus.js';
import { nodeIO } from '../src/node-io.js';
import { EVERY_MS, fileProgress, SHOW_AFTER_MS } from '../src/progress.js';
import { verifyFile } from '../src/verify-file.js';

/** A reporter on a clock the test moves, and what it wrote. */
function watched(file: string, total: number) {
  let clock = 0;
  const written: string[] = [];
  const progress = fileProgress(
    (t) => written.push(t),
    file,
    total,
    () => clock,
  );
  return { progress, written, tick: (ms: number) => (clock += ms) };
}

describe('fileProgress', () => {
  it('shows nothing for a verification shorter than SHOW_AFTER_MS', () => {
    const { progress, written, tick } = watched('big.json', 2_000_000_000);
    tick(SHOW_AFTER_MS - 1);
    progress.update(500_000_000);
    progress.done();
    expect(written).toEqual([]);
  });

  it('then rewrites one line at most every EVERY_MS, and wipes it when done', () => {
    const { progress, written, tick } = watched('big.json', 2_000_000_000);
    tick(SHOW_AFTER_MS);
    progress.update(412_000_000);
    tick(EVERY_MS - 1);
    progress.update(450_000_000);
    tick(1);
    progress.update(1_999_999_999);
    progress.done();
    const last = 'verifying big.json: 1,999 of 2,000 MB (99%)';
    expect(written).toEqual([
      '\rverifying big.json: 412 of 2,000 MB (20%)',
      `\r${last}`,
      `\r${' '.repeat(last.length)}\r`,
    ]);
  });

  it('pads a shorter line over the longer one before it', () => {
    const { progress, written, tick } = watched('b', 10);
    tick(SHOW_AFTER_MS);
    progress.update(10); // 100%
    tick(EVERY_MS);
    progress.update(9); // read again from the start, a shorter line
    expect(written[1]).toBe(`\r${'verifying b: 0 of 0 MB (90%)'.padEnd(written[0]!.length - 1)}`);
  });

  it('escapes control characters in the file name', () => {
    const { progress, written, tick } = watched('evil\u001b]0;owned\u0007.json', 10);
    tick(SHOW_AFTER_MS);
    progress.update(5);
    expect(written[0]).toBe('\rverifying evil\\u001b]0;owned\\u0007.json: 0 of 0 MB (50%)');
    expect(written.join('')).not.toContain('\u001b');
    expect(written.join('')).not.toContain('\u0007');
  });
});

describe('verifyFile with progress', () => {
  it('tells it the bytes read of a streamed file, up to its size, with the same result', async () => {
    const file = join(CORPUS_DIR, 'valid/ed25519-signed.json');
    const size = statSync(file).size;
    const io = nodeIO();
    const calls: [number, number][] = [];
    const streamInput = io.streamInput!;
    const result = await verifyFile(
      file,
      {},
      { streamInput, readInput: io.readInput },
      { streamAbove: 0, progress: (read, total) => calls.push([read, total]) },
    );
    expect(result).toEqual(verifyJson(readFileSync(file)));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.at(-1)).toEqual([size, size]);
    expect(calls.every(([read], k) => k === 0 || read > calls[k - 1]![0])).toBe(true);
    // A file read whole (under streamAbove) reports nothing.
    calls.length = 0;
    await verifyFile(
      file,
      {},
      { streamInput, readInput: io.readInput },
      { progress: (read, total) => calls.push([read, total]) },
    );
    expect(calls).toEqual([]);
  });
});
