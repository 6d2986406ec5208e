// POST /api/audit/verify is the second call site of the one verify function: its answer is
// byte for byte what `runback verify --json` prints for the same record and keys, on every
// file of the verify corpus and of the shared published vectors.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CommandIO } from '@runback/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CORPUS_DIR,
  corpusFlags,
  loadCorpus,
  type CorpusTrust,
} from '../../../test-support/corpus.js';
import { sharedVectorsDir } from '../../../test-support/vectors.js';
import { MAX_RECORD_BYTES } from '../src/body.js';
import { newSigningKeyPem, testApp } from './support/app.js';
import { testDatabase, type TestDatabase } from './support/databases.js';
import { publicKeyFromPrivateKey, privateKeyFromPem, publicKeyToPem } from '@runback/sign';

let db: TestDatabase;
const servicePem = newSigningKeyPem();
const dir = mkdtempSync(join(tmpdir(), 'runback-verify-'));
const servicePubFile = join(dir, 'service.pub.pem');
writeFileSync(
  servicePubFile,
  publicKeyToPem(publicKeyFromPrivateKey(privateKeyFromPem(servicePem))),
);

beforeAll(async () => {
  db = await testDatabase('sqlite');
});
afterAll(async () => {
  await db?.cleanup();
});

/** What `runback verify --json FILE flags…` prints beside `file`, run in-process through the CLI. */
async function cliJson(file: string, flags: string[]): Promise<string> {
  let out = '';
  const io: CommandIO = {
    stdout: (text) => void (out += text),
    stderr: () => undefined,
    readInput: async (path) => readFile(path),
    isTTY: false,
    env: {},
  };
  await runCli(['verify', '--json', file, '--pubkey', servicePubFile, ...flags], io);
  // The CLI's line names its file (several files, one line each); the result is the rest.
  const { file: named, ...result } = JSON.parse(out) as Record<string, unknown>;
  expect(named).toBe(file);
  return JSON.stringify(result) + '\n';
}

/** The API's answer for the same file, with the same keys configured as the service's own. */
async function apiJson(file: string, trust: CorpusTrust, base: string): Promise<string> {
  const t = testApp(db.store, {
    ed25519PrivateKeyPem: servicePem,
    pinnedPublicKeyPems: (trust.pinned ?? []).map((f) => readFileSync(join(base, f), 'utf8')),
    revokedPublicKeyPems: (trust.revoked ?? []).map((f) => readFileSync(join(base, f), 'utf8')),
    hmacKey: trust.hmac_key,
  });
  const res = await t.app.request('/api/audit/verify', {
    method: 'POST',
    body: readFileSync(join(base, file)),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  return res.text();
}

describe('verify endpoint equals runback verify --json', () => {
  const cases = loadCorpus();
  it('covers the whole corpus', () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
  });
  for (const c of cases) {
    it(`${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]`, async () => {
      const api = await apiJson(c.file, c.trust, CORPUS_DIR);
      const cli = await cliJson(join(CORPUS_DIR, c.file), corpusFlags(c.trust));
      expect(cli).not.toBe('');
      expect(api).toBe(cli);
      expect((JSON.parse(api) as { verdict: string }).verdict).toBe(c.expected.verdict);
    });
  }

  const shared = sharedVectorsDir();
  const published = shared === null ? null : join(shared, 'runback-published');
  describe.runIf(published !== null)('shared published vectors', () => {
    const files =
      published === null ? [] : readdirSync(published).filter((f) => f.endsWith('.json'));
    it('has records', () => {
      expect(files.length).toBeGreaterThan(0);
    });
    for (const file of files) {
      for (const trust of [{}, { pinned: ['signer.pub.pem'] }] as CorpusTrust[]) {
        it(`${file} [${trust.pinned ? 'signer pinned' : 'no keys'}]`, async () => {
          const flags = (trust.pinned ?? []).flatMap((f) => [
            '--pubkey',
            join(published as string, f),
          ]);
          const api = await apiJson(file, trust, published as string);
          expect(api).toBe(await cliJson(join(published as string, file), flags));
        });
      }
    }
  });
});

describe('verify endpoint limits', () => {
  it('refuses a body over 8 MiB while reading the stream, without reading it all', async () => {
    const t = testApp(db.store);
    let pulled = 0;
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    const total = 9 * 1024 * 1024;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= total) return controller.close();
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const res = await t.app.request('/api/audit/verify', {
      method: 'POST',
      body,
      duplex: 'half',
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    // At most the chunk that crossed the limit and one the stream had queued ahead.
    expect(pulled).toBeLessThanOrEqual(MAX_RECORD_BYTES + 2 * chunk.byteLength);
    expect(pulled).toBeLessThan(total);
  });

  it('answers malformed JSON with the invalid verdict, as the CLI does', async () => {
    const t = testApp(db.store);
    const res = await t.app.request('/api/audit/verify', { method: 'POST', body: '{"$schema": ' });
    expect(res.status).toBe(200);
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"$schema": ');
    expect(await res.text()).toBe(await cliJson(file, []));
  });

  it('counts verdicts in /metrics', async () => {
    const t = testApp(db.store);
    await t.app.request('/api/audit/verify', { method: 'POST', body: 'null' });
    const metrics = await (await t.app.request('/metrics')).text();
    expect(metrics).toMatch(/runback_verify_verdicts_total\{verdict="invalid"\} 1/);
  });
});
