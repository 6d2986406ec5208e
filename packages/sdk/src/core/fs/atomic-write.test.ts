import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { atomicWrite } from './atomic-write.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('atomicWrite', () => {
  it('writes a new file with the exact mode, whatever the umask, and no temp file remains', async () => {
    const dir = tempDir();
    await atomicWrite(join(dir, 'secret'), 'key', { mode: 0o600 });
    await atomicWrite(join(dir, 'public'), 'pub', { mode: 0o644 });
    expect(readFileSync(join(dir, 'secret'), 'utf8')).toBe('key');
    expect(mode(join(dir, 'secret'))).toBe(0o600);
    expect(mode(join(dir, 'public'))).toBe(0o644);
    expect(readdirSync(dir).sort()).toEqual(['public', 'secret']);
  });

  it('sets the mode exactly even under a restrictive umask', async () => {
    const dir = tempDir();
    const previous = process.umask(0o077);
    try {
      await atomicWrite(join(dir, 'public'), 'pub', { mode: 0o644 });
      await atomicWrite(join(dir, 'plain'), 'x');
    } finally {
      process.umask(previous);
    }
    expect(mode(join(dir, 'public'))).toBe(0o644);
    expect(mode(join(dir, 'plain'))).toBe(0o600); // no mode given: the umask applies, as for any new file
  });

  it('replaces an existing file and keeps its mode when none is given', async () => {
    const dir = tempDir();
    const path = join(dir, 'out.json');
    writeFileSync(path, 'old', { mode: 0o600 });
    await atomicWrite(path, new TextEncoder().encode('new'));
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(mode(path)).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['out.json']);
  });

  it('with overwrite: false, fails with EEXIST, keeps the old file and cleans up', async () => {
    const dir = tempDir();
    const path = join(dir, 'k.pem');
    writeFileSync(path, 'old');
    await expect(atomicWrite(path, 'new', { overwrite: false, mode: 0o600 })).rejects.toMatchObject(
      { code: 'EEXIST' },
    );
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['k.pem']);
  });

  it('fails cleanly when the directory does not exist', async () => {
    const dir = tempDir();
    await expect(atomicWrite(join(dir, 'missing', 'f'), 'x')).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('atomicWrite with streamed pieces', () => {
  it('writes pieces from a sync or async iterable in order, past the batch size', async () => {
    const dir = tempDir();
    const big = 'x'.repeat(700_000);
    await atomicWrite(join(dir, 'sync'), ['a', new TextEncoder().encode('b'), big, 'c']);
    async function* pieces() {
      yield big;
      yield 'é';
      yield big;
    }
    await atomicWrite(join(dir, 'async'), pieces());
    expect(readFileSync(join(dir, 'sync'), 'utf8')).toBe(`ab${big}c`);
    expect(readFileSync(join(dir, 'async'), 'utf8')).toBe(`${big}é${big}`);
  });

  it('leaves the old file and no temp file when the source fails midway', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'target'), 'old');
    async function* failing() {
      yield 'new';
      throw new Error('source broke');
    }
    await expect(atomicWrite(join(dir, 'target'), failing())).rejects.toThrow('source broke');
    expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['target']);
  });
});
