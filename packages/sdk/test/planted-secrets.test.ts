// Planted secrets: a run that meets secrets of every kind the redaction rules know (formats,
// an AWS key pair, JSON and form bodies, name=value pairs, secret flags in argv and in text),
// recorded through the SDK's public API and through the built `runback record`. Every byte
// those write (the record, the journal as it stood during the run, anything else left in the
// output directory) is searched for every planted secret, and the stdout digest is checked
// not to be a digest of the unredacted output.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasoning, record, tool } from '../src/index.js';
import { SAMPLE_SECRETS } from './support/record.js';
import { tempDir } from './support/temp-dir.js';

const CLI = fileURLToPath(new URL('../../cli/dist/bin.js', import.meta.url));
const PROGRAM = fileURLToPath(new URL('./fixtures/planted-program.mjs', import.meta.url));

const PEM_BODY = 'MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF';
const PLANTED = {
  awsId: 'AKIAPLANTED0EXAMPLE1',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTED01a',
  jsonPassword: 'Planted-json-pw-91',
  clientSecret: 'Planted-client-secret-92',
  formPassword: 'Planted-form-pw-93',
  formToken: 'Planted-form-token-94',
  stdoutPassword: 'Planted-stdout-pw-95',
  stdoutToken: 'Planted-stdout-token-96',
  argvPassword: 'Planted-argv-pw-97',
  argvToken: 'Planted-argv-token-98',
  memberPassword: 'Planted-member-pw-99',
};
const FORMATS = Object.values(SAMPLE_SECRETS);
/** What must never appear: every planted value, and the distinctive part of each format. */
const NEEDLES: readonly string[] = [
  ...Object.values(PLANTED),
  ...FORMATS.map((secret) =>
    secret.startsWith('-----BEGIN')
      ? (secret.split('\n')[1] as string)
      : secret.replace(/^Bearer /, ''),
  ),
  PEM_BODY,
];

let server: Server;
let url: string;

beforeAll(async () => {
  // Echoes every request body back, so the responses carry the secrets too.
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.setHeader('content-type', req.headers['content-type'] ?? 'text/plain');
      res.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Every file under `dir`, with its bytes. */
function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [p, b] of filesUnder(path)) out.set(p, b);
    else out.set(path, readFileSync(path));
  }
  return out;
}

function expectNoSecrets(files: ReadonlyMap<string, Buffer>): void {
  expect(files.size).toBeGreaterThan(0);
  const found: string[] = [];
  for (const [path, bytes] of files)
    for (const needle of NEEDLES) if (bytes.includes(needle)) found.push(`${needle} in ${path}`);
  expect(found).toEqual([]);
}

function runNode(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('planted secrets never reach the disk', () => {
  it('through the SDK: record, journal and every fetch', async () => {
    const dir = tempDir();
    const out = join(dir, 'sdk.record.json');
    const journalBytes: Buffer[] = [];
    await record(
      {
        name: 'planted',
        input: {
          argv: ['deploy', '--password', PLANTED.argvPassword, `--token=${PLANTED.argvToken}`],
        },
        out,
        journal: true,
        captureEnv: { fetch: true },
      },
      async () => {
        await tool('login', { user: 'ann', password: PLANTED.memberPassword }, () => ({
          ok: true,
          note: `formats ${FORMATS.join(' ')} aws ${PLANTED.awsId} ${PLANTED.awsSecret}`,
        }));
        reasoning(
          `retry with password=${PLANTED.stdoutPassword} --token ${PLANTED.stdoutToken}`,
          'plan',
        );
        await fetch(`${url}/json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            user: 'ann',
            password: PLANTED.jsonPassword,
            client_secret: PLANTED.clientSecret,
          }),
        }).then((r) => r.text());
        await fetch(`${url}/form`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `username=ann&password=${PLANTED.formPassword}&token=${PLANTED.formToken}`,
        }).then((r) => r.text());
        journalBytes.push(readFileSync(`${out}.journal`));
      },
    );
    const files = filesUnder(dir);
    files.set('(journal during the run)', Buffer.concat(journalBytes));
    expect(files.get('(journal during the run)')?.toString()).toContain('"kind":"fetch"');
    expectNoSecrets(files);
    // The bodies are there, only their secrets are gone.
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`username=ann&password=[REDACTED]&token=[REDACTED]`);
    expect(text).toContain('\\"client_secret\\":\\"[REDACTED]\\"');
    expect(text).toContain('"--password","[REDACTED]","--token=[REDACTED]"');
  });

  it('through the built `runback record`: record, journal, stdout and its digest', async () => {
    const dir = tempDir();
    const out = join(dir, 'cli.record.json');
    const journalCopy = join(dir, 'journal-during-run.jsonl');
    const secrets = { ...PLANTED, formats: FORMATS };
    // Asynchronously: the program fetches from the server this process runs.
    const run = await runNode(
      [
        CLI,
        'record',
        '--out',
        out,
        '--journal',
        '--',
        process.execPath,
        PROGRAM,
        '--password',
        PLANTED.argvPassword,
        `--token=${PLANTED.argvToken}`,
      ],
      {
        ...process.env,
        NO_COLOR: '1',
        PLANTED_SECRETS: JSON.stringify(secrets),
        PLANTED_URL: url,
        PLANTED_JOURNAL: `${out}.journal`,
        PLANTED_JOURNAL_COPY: journalCopy,
      },
    );
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.status).toBe(0);
    // The program's own output passes through unchanged; the files hold none of it.
    expect(run.stdout).toContain(PLANTED.stdoutPassword);
    const files = filesUnder(dir);
    expect([...files.keys()].map((p) => p.slice(dir.length + 1)).sort()).toEqual([
      'cli.record.json',
      'journal-during-run.jsonl',
    ]);
    expect(files.get(journalCopy)?.toString()).toContain('"kind":"fetch"');
    expectNoSecrets(files);

    const recorded = JSON.parse(readFileSync(out, 'utf8')) as {
      events: { phase?: string; output?: { stdout?: { text: string; sha256: string } } }[];
    };
    const stdout = recorded.events.find((e) => e.phase === 'end')?.output?.stdout;
    expect(stdout?.text).toContain('password=[REDACTED]');
    expect(stdout?.sha256).not.toBe(sha256(run.stdout));
  });
});
