// runback-verify refuses inputs that could stream forever and caps what it reads: a device or
// FIFO is refused before any byte is read, standard input and files stop at --max-bytes, each
// with a stable code and exit 64.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readBoundedInput } from '../src/read-bounded.js';

const BIN = fileURLToPath(new URL('../bin/runback-verify.js', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
  dirs.push(dir);
  return dir;
};

function verify(args: string[], stdin?: 'yes'): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    if (stdin === 'yes') {
      // An endless writer, like `yes`: the command must stop reading by itself.
      const line = Buffer.from('y\n'.repeat(32768));
      const pump = () => {
        while (child.stdin?.write(line));
      };
      child.stdin?.on('drain', pump);
      child.stdin?.on('error', () => undefined);
      pump();
    }
    child.once('close', (status) => resolve({ status, stderr }));
  });
}

describe('bounded input', () => {
  it('/dev/zero is refused as a character device, before it is read (exit 64)', async () => {
    const r = await verify(['/dev/zero']);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('[INPUT_NOT_REGULAR_FILE]');
    expect(r.stderr).toContain(
      'expected a regular file (or "-" for standard input), got a character device',
    );
  });

  it('a FIFO and a directory are refused', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'f');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // No writer: the refusal must not wait for one.
    const r = await verify([fifo]);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('got a FIFO');
    expect((await verify([dir])).stderr).toContain('[INPUT_NOT_REGULAR_FILE]');
  });

  it('endless standard input stops at --max-bytes with INPUT_TOO_LARGE (exit 64)', async () => {
    const r = await verify(['-', '--max-bytes', '1000000'], 'yes');
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('[INPUT_TOO_LARGE]');
    expect(r.stderr).toContain(
      'expected standard input of at most 1000000 bytes (--max-bytes), got more',
    );
  });

  it('a file over the cap is refused; at the cap it is read; bad --max-bytes is a usage error', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.json');
    writeFileSync(file, 'x'.repeat(2048));
    await expect(readBoundedInput(file, { maxBytes: 2047 })).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
    });
    expect((await readBoundedInput(file, { maxBytes: 2048 })).byteLength).toBe(2048);
    const r = await verify([file, '--max-bytes', '100']);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('expected a file of at most 100 bytes');
    for (const bad of ['0', '-1', '1e3', 'lots']) {
      const u = await verify([file, `--max-bytes=${bad}`]);
      expect(u.status, bad).toBe(64);
      expect(u.stderr).toContain('expected --max-bytes to be a whole number of bytes >= 1');
    }
  });

  it('a file is read whole, byte for byte, however its size compares with the read sizes', async () => {
    const dir = tempDir();
    for (const size of [0, 1, 65535, 65536, 65537, 3 * 1024 * 1024 + 7]) {
      const file = join(dir, `f${size}.bin`);
      writeFileSync(file, randomBytes(size));
      const read = await readBoundedInput(file, { maxBytes: size + 1 });
      expect(Buffer.from(read).equals(readFileSync(file)), String(size)).toBe(true);
    }
  });

  it('a file longer than its stat says (a /proc file states 0 bytes) is read to its end, within the cap', async () => {
    const read = await readBoundedInput('/proc/self/status', { maxBytes: 1 << 20 });
    expect(Buffer.from(read).toString('utf8')).toMatch(/^Name:.*\n[\s\S]*VmRSS:/);
    await expect(readBoundedInput('/proc/self/status', { maxBytes: 16 })).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
    });
  });
});

describe('readBoundedInput into a buffer it is given', () => {
  it('reads a regular file into the buffer allocate gives, and into its own without one', async () => {
    const file = join(tempDir(), 'record.json');
    const content = randomBytes(100_000);
    writeFileSync(file, content);
    const sizes: number[] = [];
    const given = new Uint8Array(new ArrayBuffer(200_000));
    const read = await readBoundedInput(file, {
      maxBytes: 1 << 20,
      allocate: (size) => {
        sizes.push(size);
        return given.subarray(0, size);
      },
    });
    // One byte over the file's size: reaching its end needs no second buffer.
    expect(sizes).toEqual([100_001]);
    expect(read.buffer).toBe(given.buffer);
    expect(read.byteOffset).toBe(0);
    expect(Buffer.from(read).equals(content)).toBe(true);
    const own = await readBoundedInput(file, { maxBytes: 1 << 20, allocate: () => undefined });
    expect(own.buffer).not.toBe(given.buffer);
    expect(Buffer.from(own).equals(content)).toBe(true);
  });
});
