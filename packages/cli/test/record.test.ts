// `runback record` and `runback recover`, end to end through the built CLI: a program's
// environment reads and output land in a record that verifies, secrets never reach the disk,
// exit statuses pass through, and an interrupted `runback record --journal` recovers.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicKeyFromPem } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runbackAsync, tempDir } from './support.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const ENV_PROGRAM = fileURLToPath(new URL('./fixtures/env-program.mjs', import.meta.url));

interface Event {
  type: string;
  kind?: string;
  phase?: string;
  key?: string;
  status?: string;
  input?: Record<string, unknown>;
  output?: Record<string, unknown> & { stdout?: { text: string; sha256: string; bytes: number } };
  error?: { name: string } | null;
  metadata?: Record<string, unknown>;
}

function runback(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function readRecord(path: string): { events: Event[]; run: Record<string, unknown> } {
  return JSON.parse(readFileSync(path, 'utf8')) as {
    events: Event[];
    run: Record<string, unknown>;
  };
}

let server: Server;
let url: string;
let dir: string;
let key: string;
let pinned: Uint8Array;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ rate: 0.042 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/quote`;
  // Not tempDir(): that is emptied after every test, and the key serves them all.
  dir = mkdtempSync(join(tmpdir(), 'runback-record-keys-'));
  expect(runback(['keygen', '--out', dir]).status).toBe(0);
  key = join(dir, 'runback.key.pem');
  pinned = publicKeyFromPem(readFileSync(join(dir, 'runback.pub.pem'), 'utf8'));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('runback record', () => {
  it('records a Node program with no code change: fetch, clock, randomness, UUID, output', async () => {
    const out = join(tempDir(), 'run.json');
    const r = await runbackAsync([
      'record',
      '--out',
      out,
      '--key',
      key,
      '--json',
      '--',
      process.execPath,
      ENV_PROGRAM,
      url,
    ]);
    expect(r.status, r.stderr).toBe(0);
    // The program's output passes through unchanged; the report goes to stderr.
    expect(r.stdout).toBe(
      '{"rate":0.042,"at":"number","pick":true,"id":36}\ndebug: using key sk-live-0123456789abcdefghijklmn\n',
    );
    const report = JSON.parse(r.stderr.trim().split('\n').at(-1) as string) as Record<
      string,
      unknown
    >;
    expect(report).toMatchObject({ exit_code: 0, verdict: 'valid', out });

    const bytes = readFileSync(out);
    expect(verifyJson(bytes, { pinned: [pinned] }).verdict).toBe('valid');
    const { events, run } = readRecord(out);
    expect(run['status']).toBe('success');
    const start = events[0] as Event;
    expect(start).toMatchObject({
      type: 'run',
      phase: 'start',
      input: { argv: [process.execPath, ENV_PROGRAM, url] },
    });
    const environment = (start.metadata as { environment: Record<string, unknown> }).environment;
    expect(environment['node']).toBe(process.version);
    expect(environment).toHaveProperty('os.platform', process.platform);
    expect(environment['env_keys']).toContain('PATH');
    const kinds = events.filter((e) => e.type === 'env').map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['fetch', 'now', 'random', 'uuid']));
    const fetched = events.find((e) => e.kind === 'fetch') as Event;
    expect(fetched.input).toEqual({
      body: { text: '{"applicant":"A-1029"}' },
      method: 'POST',
      url,
    });
    expect(fetched.output).toMatchObject({ status: 200, body: { text: '{"rate":0.042}' } });

    const end = events.at(-1) as Event;
    expect(end).toMatchObject({
      type: 'run',
      phase: 'end',
      status: 'success',
      output: { exit_code: 0, signal: null },
    });
    expect(end.output?.stdout?.bytes).toBe(Buffer.byteLength(r.stdout));
    // Secrets in the program's output and headers never reach the disk.
    expect(bytes.includes('sk-live-0123456789')).toBe(false);
    expect(bytes.includes('abcdefghijklmnop1234567890')).toBe(false);
    expect(end.output?.stdout?.text).toContain('debug: using key [REDACTED]');
  });

  it('passes a failing exit status through and records the run as an error', () => {
    const out = join(tempDir(), 'run.json');
    const r = runback([
      'record',
      '--out',
      out,
      '--',
      process.execPath,
      '-e',
      'process.stdout.write("partial"); process.exit(3)',
    ]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toBe('partial');
    const result = verifyJson(readFileSync(out));
    expect(result.integrity).toBe(true);
    expect(result.checks.signature).toBe('unsigned');
    const end = readRecord(out).events.at(-1) as Event;
    expect(end).toMatchObject({
      status: 'error',
      error: { name: 'NonZeroExit' },
      output: { exit_code: 3 },
    });
  });

  it('records a program that is not Node, and one that cannot start (exit 127)', () => {
    const out = join(tempDir(), 'run.json');
    const shell = runback(['record', '--out', out, '--key', key, '--', 'sh', '-c', 'echo hello']);
    expect(shell.status, shell.stderr).toBe(0);
    const end = readRecord(out).events.at(-1) as Event;
    expect(end.output?.stdout?.text).toBe('hello\n');
    const missing = join(tempDir(), 'missing.json');
    const r = runback(['record', '--out', missing, '--', 'runback-no-such-program-xyz']);
    expect(r.status, r.stderr).toBe(127);
    expect(readRecord(missing).events.at(-1)).toMatchObject({
      status: 'error',
      error: { name: 'SpawnError' },
    });
  });

  it('rejects a missing command or --out with exit 64', () => {
    expect(runback(['record', '--out', 'x.json']).status).toBe(64);
    expect(runback(['record', '--', 'true']).status).toBe(64);
    expect(runback(['record', '--out', 'x.json', 'true']).status).toBe(64);
  });

  it('--journal: a killed recording is recovered from its journal', async () => {
    const work = tempDir();
    const out = join(work, 'run.json');
    const script = join(work, 'slow.mjs');
    writeFileSync(
      script,
      `const r = await fetch(${JSON.stringify(url)}); await r.text(); Date.now(); console.log('ready'); setInterval(() => {}, 1000);`,
    );
    const child = spawn(
      process.execPath,
      [BIN, 'record', '--out', out, '--journal', '--key', key, '--', process.execPath, script],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (c: Buffer) => c.toString().includes('ready') && resolve()),
    );
    // The whole process group: runback and the program it records.
    process.kill(-(child.pid as number), 'SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    expect(existsSync(`${out}.journal`)).toBe(true);
    expect(existsSync(out)).toBe(false);

    const r = runback(['recover', `${out}.journal`, '--key', key, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ interrupted: true, verdict: 'valid' });
    expect(readdirSync(work).sort()).toEqual(['run.json', 'run.json.journal', 'slow.mjs']);
    expect(verifyJson(readFileSync(out), { pinned: [pinned] }).verdict).toBe('valid');
    const kinds = readRecord(out).events.map((e) => e.kind ?? `${e.type}:${e.phase}`);
    expect(kinds).toEqual(['run:start', 'fetch', 'now', 'run:end']);
  });
});

describe('runback recover', () => {
  function interruptedJournal(): string {
    const work = tempDir();
    const out = join(work, 'run.json');
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { startRun, tool } = await import(${JSON.stringify(new URL('../node_modules/@runback/sdk/dist/index.js', import.meta.url).href)});
         const run = startRun({ name: 'x', out: ${JSON.stringify(out)}, journal: true });
         await run.run(() => tool('t', { a: 1 }, () => 2));
         process.exit(0);`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    return `${out}.journal`;
  }

  it('writes next to the journal, refuses to replace a file without --force', () => {
    const journal = interruptedJournal();
    const first = runback(['recover', journal]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('Recovered');
    expect(first.stdout).toContain('Interrupted');
    const out = journal.slice(0, -'.journal'.length);
    expect(verifyJson(readFileSync(out)).integrity).toBe(true);
    const again = runback(['recover', journal]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('--force');
    expect(runback(['recover', journal, '--force']).status).toBe(0);
  });

  it('names the damaged line of a corrupt journal and writes nothing', () => {
    const journal = interruptedJournal();
    const lines = readFileSync(journal, 'utf8').split('\n');
    lines[2] = (lines[2] as string).replace('"a":1', '"a":9');
    writeFileSync(journal, lines.join('\n'));
    const out = join(tempDir(), 'x.json');
    const r = runback(['recover', journal, '--out', out]);
    expect(r.status).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(r.stderr).toContain('line 3');
    expect(r.stderr).toContain('expected _hash to continue the event chain');
  });

  it('rejects a file that is not a journal, and usage mistakes', () => {
    const notJournal = join(tempDir(), 'x.journal');
    writeFileSync(notJournal, '{"hello":1}\n');
    const r = runback(['recover', notJournal]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not a runback journal');
    expect(runback(['recover']).status).toBe(64);
    expect(runback(['recover', join(tempDir(), 'missing.journal')]).status).toBe(64);
  });
});
