// A FILE over 64 MiB is verified as a stream (verifyStream), a smaller one whole; either way
// every `--json` line is exactly the one verifyJson gives on the same bytes — messages
// included — so the CLI, the HTTP API and the web page print the same thing. Also the file
// opener: regular files only, the cap, closing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyJson } from '@runback/verify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CORPUS_DIR,
  corpusFlags,
  corpusOptions,
  loadCorpus,
  type CorpusCase,
} from '../../../test-support/corpus.js';
import { nodeIO } from '../src/node-io.js';
import { openRegularFile } from '../src/read-bounded.js';
import { verifyFile } from '../src/verify-file.js';

const BIN = fileURLToPath(new URL('../bin/runback-verify.js', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-cli-stream-'));
  dirs.push(dir);
  return dir;
};

const optionsOf = corpusOptions;

describe('runback-verify --json on a streamed FILE', () => {
  const groups = new Map<string, CorpusCase[]>();
  for (const c of loadCorpus()) {
    const key = JSON.stringify(c.trust);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const group of groups.values()) {
    const trust = group[0]!.trust;
    it(`prints verifyJson's result, member for member: ${group.length} corpus file(s) [${Object.keys(trust).join(',') || 'no keys'}]`, () => {
      const files = group.map((c) => join(CORPUS_DIR, c.file));
      const run = spawnSync(process.execPath, [BIN, ...files, '--json', ...corpusFlags(trust)], {
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(files.length);
      files.forEach((file, i) => {
        const expected = JSON.stringify({
          file,
          ...verifyJson(readFileSync(file), optionsOf(trust)),
        });
        expect(lines[i]).toBe(expected);
      });
    });
  }
});

describe('verifyFile', () => {
  const io = nodeIO();
  const streamInput = io.streamInput!;

  it("streamed, gives verifyJson's result on every corpus file, messages included", async () => {
    for (const c of loadCorpus()) {
      const file = join(CORPUS_DIR, c.file);
      const options = optionsOf(c.trust);
      const streamed = await verifyFile(
        file,
        options,
        { streamInput, readInput: io.readInput },
        { streamAbove: 0 },
      );
      expect(streamed, c.file).toEqual(verifyJson(readFileSync(file), options));
    }
  });

  it('reads a file up to the threshold whole, and streams a larger one', async () => {
    const file = join(CORPUS_DIR, 'valid/ed25519-signed.json');
    const size = readFileSync(file).length;
    const iterated: boolean[] = [];
    const watching = {
      streamInput: async (path: string, options?: { maxBytes?: number | undefined }) => {
        const input = await streamInput(path, options);
        let used = false;
        iterated.push(false);
        const at = iterated.length - 1;
        return {
          ...input,
          chunks: (async function* () {
            used = true;
            iterated[at] = used;
            yield* input.chunks;
          })(),
        };
      },
      readInput: io.readInput,
    };
    const expected = verifyJson(readFileSync(file));
    expect(await verifyFile(file, {}, watching, { streamAbove: size })).toEqual(expected);
    expect(await verifyFile(file, {}, watching, { streamAbove: size - 1 })).toEqual(expected);
    expect(iterated).toEqual([false, true]);
  });

  it('settles a record further out of seq order than the stream budget by streaming again', async () => {
    // The last model call stored first: the stream's cassette must reorder it.
    const record = JSON.parse(
      readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json'), 'utf8'),
    ) as { events: unknown[] };
    record.events.splice(1, 0, record.events.splice(6, 1)[0]);
    const file = join(tempDir(), 'reordered.json');
    writeFileSync(file, JSON.stringify(record));
    const result = await verifyFile(
      file,
      {},
      { streamInput, readInput: io.readInput },
      { reorderBudget: 0, streamAbove: 0 },
    );
    expect(result).toEqual(verifyJson(readFileSync(file)));
    expect(result.checks.cassette).toBe(true);
  });

  it('reports a file that grows past --max-bytes while it is read as too large', async () => {
    const dir = tempDir();
    const file = join(dir, 'growing.json');
    writeFileSync(file, '{"events":[');
    const input = await openRegularFile(file, { maxBytes: 100 });
    writeFileSync(file, '{"events":[' + '1,'.repeat(200) + '1]}');
    let total = 0;
    for await (const chunk of input.chunks) total += chunk.byteLength;
    expect(total).toBeLessThanOrEqual(100);
    expect(input.failure()).toMatchObject({ code: 'INPUT_TOO_LARGE' });
  });
});

describe('openRegularFile', () => {
  it('streams a regular file whole, then closes it', async () => {
    const file = join(tempDir(), 'r.json');
    const text = 'x'.repeat(3 << 20);
    writeFileSync(file, text);
    const input = await openRegularFile(file);
    expect(input.size).toBe(text.length);
    const chunks: Uint8Array[] = [];
    for await (const chunk of input.chunks) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).toString()).toBe(text);
    expect(input.failure()).toBeUndefined();
  });

  it('refuses a directory, a device and a file over the cap before reading', async () => {
    const dir = tempDir();
    await expect(openRegularFile(dir)).rejects.toMatchObject({ code: 'INPUT_NOT_REGULAR_FILE' });
    await expect(openRegularFile('/dev/zero')).rejects.toMatchObject({
      code: 'INPUT_NOT_REGULAR_FILE',
    });
    const file = join(dir, 'big.json');
    writeFileSync(file, 'x'.repeat(101));
    await expect(openRegularFile(file, { maxBytes: 100 })).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
    });
    await expect(openRegularFile(join(dir, 'absent.json'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
