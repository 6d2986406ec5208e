// `runback replay` enforces the trust it is given and serves the program exactly the bytes it
// verified: a record signed by another key, or unsigned, is refused under --pubkey unless
// --allow-unverified; a record file rewritten after it was read cannot feed the program other
// answers.
import { generateEd25519KeyPair, privateKeyToPem, publicKeyToPem } from '@runback/sign';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runbackAsync, tempDir } from './support.js';

const STEADY = fileURLToPath(new URL('./fixtures/steady-program.mjs', import.meta.url));

async function rateServer(
  initial: number,
): Promise<{ url: string; setRate: (rate: number) => void; close: () => Promise<void> }> {
  let rate = initial;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ rate }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/quote`,
    setRate: (next) => void (rate = next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function keyFiles(dir: string, name: string, fill: number): { key: string; pub: string } {
  const pair = generateEd25519KeyPair(new Uint8Array(32).fill(fill));
  const key = join(dir, `${name}.key.pem`);
  const pub = join(dir, `${name}.pub.pem`);
  writeFileSync(key, privateKeyToPem(pair.privateKey));
  writeFileSync(pub, publicKeyToPem(pair.publicKey));
  return { key, pub };
}

/** Records the steady program against `url`. */
async function recordAt(url: string, out: string, extra: string[] = []): Promise<void> {
  const r = await runbackAsync([
    'record',
    '--out',
    out,
    ...extra,
    '--',
    process.execPath,
    STEADY,
    url,
  ]);
  expect(r.status, r.stderr).toBe(0);
}

describe('runback replay trust', () => {
  it('under --pubkey refuses a record signed by another key or unsigned (exit 2), unless --allow-unverified', async () => {
    const dir = tempDir();
    const alice = keyFiles(dir, 'alice', 3);
    const mallory = keyFiles(dir, 'mallory', 4);
    const server = await rateServer(0.042);
    const url = server.url;
    const signed = join(dir, 'signed.json');
    await recordAt(url, signed, ['--key', mallory.key]);
    const unsigned = join(dir, 'unsigned.json');
    await recordAt(url, unsigned);
    await server.close();
    const program = ['--', process.execPath, STEADY, url];

    const other = await runbackAsync(['replay', signed, '--pubkey', alice.pub, ...program]);
    expect(other.status, other.stderr).toBe(2);
    expect(other.stderr).toContain('expected a record signed by a --pubkey key, got unverified');
    expect(other.stdout).toBe(''); // the program never ran
    const bare = await runbackAsync(['replay', unsigned, '--pubkey', alice.pub, ...program]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('it is unsigned');

    const allowed = await runbackAsync([
      'replay',
      unsigned,
      '--pubkey',
      alice.pub,
      '--allow-unverified',
      ...program,
    ]);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain('unverified');
    const trusted = await runbackAsync(['replay', signed, '--pubkey', mallory.pub, ...program]);
    expect(trusted.status, trusted.stderr).toBe(0);
    expect(trusted.stderr).toContain('valid');
  });

  it('the program is served the bytes that were verified: a FIFO cannot hand the preload a forged record', async () => {
    const dir = tempDir();
    const server = await rateServer(0.042);
    const baseline = join(dir, 'baseline.json');
    const forged = join(dir, 'forged.json');
    const record = (out: string) =>
      runbackAsync(['record', '--out', out, '--', process.execPath, STEADY, server.url]);
    expect((await record(baseline)).status).toBe(0);
    // A second, self-consistent record of the same call with another answer.
    server.setRate(0.999);
    expect((await record(forged)).status).toBe(0);
    await server.close();

    // The path serves the genuine record to its first reader and the forged one to the next.
    const fifo = join(dir, 'record.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // The feeder writes the genuine record, waits until that reader has gone (opening for
    // writing without blocking fails with ENXIO while no one reads), then writes the forged
    // record to whoever opens the path next.
    const feeder = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [fifo, genuine, forged] = process.argv.slice(1);
         fs.writeFileSync(fifo, fs.readFileSync(genuine));
         let gone = false;
         const poll = () => {
           let fd;
           try { fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK); }
           catch { gone = true; return setTimeout(poll, 2); }
           if (!gone) { fs.closeSync(fd); return setTimeout(poll, 2); }
           const bytes = fs.readFileSync(forged);
           let at = 0;
           while (at < bytes.length) { try { at += fs.writeSync(fd, bytes, at); } catch {} }
           fs.closeSync(fd);
         };
         poll();`,
        fifo,
        baseline,
        forged,
      ],
      { stdio: 'ignore' },
    );
    try {
      const r = await runbackAsync(['replay', fifo, '--', process.execPath, STEADY, server.url]);
      expect(r.stdout, r.stderr).toContain('0.042');
      expect(r.stdout).not.toContain('0.999');
      expect(r.status, r.stderr).toBe(0);
    } finally {
      feeder.kill('SIGKILL');
    }
  });
});
