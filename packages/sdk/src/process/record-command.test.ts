import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fetchKey } from '@runback/replay-digest';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import {
  ED25519_SIGNER,
  HMAC_KEY,
  SAMPLE_SECRETS,
  eventsOf,
  localServer,
  readValidRecord,
  type Ev,
} from '../../test/support/record.js';
import { recordCommand, type RecordCommandOptions } from './record-command.js';

const SDK_DIST = fileURLToPath(new URL('../../dist/process.js', import.meta.url));
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Writes a Node script into a fresh directory; returns the directory and the script's path. */
function script(source: string): { dir: string; path: string } {
  const dir = tempDir();
  const path = join(dir, 'program.mjs');
  writeFileSync(path, source);
  return { dir, path };
}

/** Records `node <script>` without the preload (which needs the built SDK; see the last test). */
async function recordScript(source: string, options: Partial<RecordCommandOptions> = {}) {
  const { dir, path } = script(source);
  const out = join(dir, 'run.json');
  const result = await recordCommand({
    command: process.execPath,
    args: [path],
    out,
    signer: ED25519_SIGNER,
    cwd: dir,
    preload: false,
    ...options,
  });
  const { text, record } = readValidRecord(out);
  return {
    dir,
    path,
    out,
    result,
    text,
    record,
    start: record.events[0] as Ev,
    end: record.events.at(-1) as Ev,
  };
}

const scratchJournals = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith(`runback-${process.pid}-`));

describe('recordCommand', () => {
  it('records argv, cwd, the environment, the exit code and both output streams; the record verifies', async () => {
    const before = scratchJournals();
    const chunks: string[] = [];
    const { dir, path, result, start, end, record } = await recordScript(
      `process.stdout.write('hello out\\n'); process.stderr.write('oops\\n');`,
      { onStdout: (chunk) => chunks.push(Buffer.from(chunk).toString()) },
    );
    const stdout = {
      text: 'hello out\n',
      bytes: 10,
      sha256: sha256('hello out\n'),
      truncated: false,
    };
    const stderr = { text: 'oops\n', bytes: 5, sha256: sha256('oops\n'), truncated: false };
    expect(result).toMatchObject({
      exitCode: 0,
      signal: null,
      spawnError: undefined,
      stdout,
      stderr,
    });
    expect(chunks.join('')).toBe('hello out\n');
    expect(start).toMatchObject({
      name: basename(process.execPath),
      input: { argv: [process.execPath, path], cwd: dir },
      metadata: { recorder: 'runback record', environment: { node: process.version, git: null } },
    });
    expect((start.metadata?.['environment'] as { env_keys: string[] }).env_keys).toContain('PATH');
    expect(end).toMatchObject({
      phase: 'end',
      status: 'success',
      error: null,
      output: { exit_code: 0, signal: null, stdout, stderr },
    });
    expect(record.events).toHaveLength(2);
    expect(result.report).toMatchObject({
      appendedEnd: true,
      interrupted: false,
      recoveredEvents: 1,
    });
    expect(scratchJournals()).toEqual(before);
  });

  it('a non-zero exit is status error, NonZeroExit', async () => {
    const { result, end, record } = await recordScript('process.exit(3)');
    expect(result.exitCode).toBe(3);
    expect(end).toMatchObject({
      status: 'error',
      output: { exit_code: 3 },
      error: { name: 'NonZeroExit' },
    });
    expect(end['error']).toMatchObject({ message: expect.stringContaining('3') });
    expect(record.run['status']).toBe('error');
  });

  it('a signal is status error, Signal', async () => {
    const { result, end } = await recordScript(
      `process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000);`,
    );
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGTERM' });
    expect(end).toMatchObject({
      status: 'error',
      output: { exit_code: null, signal: 'SIGTERM' },
      error: { name: 'Signal' },
    });
  });

  it('a command that cannot start is status error, SpawnError; the record is still written', async () => {
    const dir = tempDir();
    const out = join(dir, 'run.json');
    const result = await recordCommand({
      command: join(dir, 'no-such-command'),
      out,
      signer: ED25519_SIGNER,
      preload: false,
    });
    expect(result).toMatchObject({
      exitCode: null,
      signal: null,
      spawnError: expect.stringMatching(/ENOENT/),
    });
    const end = readValidRecord(out).record.events.at(-1) as Ev;
    expect(end).toMatchObject({
      status: 'error',
      error: { name: 'SpawnError', message: expect.stringMatching(/no-such-command/) },
    });
  });

  it('keeps outputLimit bytes of text; a journal: true run leaves no journal; a name is used', async () => {
    const { out, result, start, end } = await recordScript(`process.stdout.write('0123456789')`, {
      outputLimit: 4,
      journal: true,
      name: 'digits',
    });
    expect(result.stdout).toEqual({
      text: '0123',
      bytes: 10,
      sha256: sha256('0123456789'),
      sha256_covers: 'redacted-lines',
      truncated: true,
    });
    expect(end['output']).toMatchObject({ stdout: result.stdout });
    expect(start['name']).toBe('digits');
    expect(existsSync(`${out}.journal`)).toBe(false);
  });

  it("removes what killed runs left in the temporary directory and beside the record, never a live run's", async () => {
    const dead = await new Promise<number>((resolve) => {
      const c = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
      c.once('close', () => resolve(c.pid as number));
    });
    const staleJournal = join(tmpdir(), `runback-${dead}-0123456789ab.journal`);
    const staleCopy = join(tmpdir(), `runback-replay-${dead}-AbC123`);
    const liveJournal = join(tmpdir(), `runback-${process.ppid}-0123456789ab.journal`);
    writeFileSync(staleJournal, 'left by a killed run\n');
    mkdirSync(staleCopy);
    writeFileSync(join(staleCopy, 'record.json'), '{}');
    writeFileSync(liveJournal, 'a run still going\n');
    const { dir, path } = script('');
    const out = join(dir, 'run.json');
    const staleTemp = join(dir, `.run.json.${dead}.0123456789ab.tmp`);
    writeFileSync(staleTemp, 'half a record');
    try {
      await recordCommand({ command: process.execPath, args: [path], out, preload: false });
      expect(existsSync(staleJournal)).toBe(false);
      expect(existsSync(staleCopy)).toBe(false);
      expect(existsSync(staleTemp)).toBe(false);
      expect(existsSync(liveJournal)).toBe(true);
    } finally {
      rmSync(liveJournal, { force: true });
    }
  });

  it('redacts secrets the program prints', async () => {
    const { text, end } = await recordScript(`console.log('key ${SAMPLE_SECRETS.openai}')`);
    expect(text).not.toContain(SAMPLE_SECRETS.openai);
    expect(end['output']).toMatchObject({
      // The digest covers the stored (redacted) stream, never the secret.
      stdout: { text: 'key [REDACTED]\n', sha256: sha256('key [REDACTED]\n') },
    });
    expect(end.metadata).toMatchObject({ redacted: ['/output/stdout/text'] });
  });

  it.each([
    ['an empty command', { command: '' }, /command/],
    ['a negative outputLimit', { command: 'x', outputLimit: -1 }, /outputLimit/],
  ])('throws a TypeError for %s', async (_, options, message) => {
    await expect(recordCommand({ out: join(tempDir(), 'o.json'), ...options })).rejects.toThrow(
      TypeError,
    );
    await expect(recordCommand({ out: join(tempDir(), 'o.json'), ...options })).rejects.toThrow(
      message,
    );
  });

  // The preload is found with import.meta.resolve, which vitest's module runner lacks, so this
  // case drives the built SDK (dist/) from a plain Node process.
  it('with the preload, the fetch, Date.now, Math.random and randomUUID of a program are env events in the same record', async () => {
    expect(existsSync(SDK_DIST), 'build the SDK first: pnpm --filter @runback/sdk build').toBe(
      true,
    );
    const base = await localServer((_, __, res) => res.end('from the server'));
    const url = `${base}/data`;
    const { dir, path } = script(`
      const now = Date.now();
      const random = Math.random();
      const uuid = crypto.randomUUID();
      const body = await (await fetch(${JSON.stringify(url)})).text();
      await new Promise((resolve) => setTimeout(resolve, 20));
      process.stdout.write(JSON.stringify({ now, random, uuid, body }));
    `);
    const out = join(dir, 'run.json');
    const driver = join(dir, 'driver.mjs');
    writeFileSync(
      driver,
      `import { recordCommand } from ${JSON.stringify(SDK_DIST)};
       const result = await recordCommand(JSON.parse(process.argv[2]));
       process.stdout.write(JSON.stringify({ exitCode: result.exitCode, stderr: result.stderr.text }));`,
    );
    const options = {
      command: process.execPath,
      args: [path],
      out,
      cwd: dir,
      signer: { alg: 'HMAC-SHA256', key: HMAC_KEY },
    };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [driver, JSON.stringify(options)],
      { cwd: dir },
    );
    expect(JSON.parse(stdout)).toEqual({ exitCode: 0, stderr: '' });

    const { record } = readValidRecord(out);
    const end = record.events.at(-1) as Ev;
    const seen = JSON.parse((end['output'] as { stdout: { text: string } }).stdout.text) as Record<
      string,
      unknown
    >;
    expect(seen['body']).toBe('from the server');
    expect(eventsOf(record, 'env').map((e) => [e['kind'], e['key'], e.parent_span_id])).toEqual([
      ['now', 'now', 'run'],
      ['random', 'random', 'run'],
      ['uuid', 'uuid', 'run'],
      ['fetch', fetchKey('GET', url), 'run'],
    ]);
    const [now, random, uuid, fetched] = eventsOf(record, 'env');
    expect([now?.['output'], random?.['output'], uuid?.['output']]).toEqual([
      seen['now'],
      seen['random'],
      seen['uuid'],
    ]);
    expect(fetched?.['output']).toMatchObject({ status: 200, body: { text: 'from the server' } });
    expect(record.events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(existsSync(`${out}.journal`)).toBe(false);
  });
});
