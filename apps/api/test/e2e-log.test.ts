// End to end through the transparency log: the SDK records runs with HttpSink → the API seals,
// signs and logs them → the export, its inclusion proof, the checkpoint and the published key
// are fetched → the built `runback verify RECORD --proof PROOF.json --log-key PEM` says valid
// offline; a proof of another run or an edited checkpoint is refused; and `runback log verify
// --proof` accepts the consistency proof between two checkpoints fetched from the API.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpSink, record, tool } from '@runback/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN } from './support/app.js';
import {
  issueToken,
  RUNBACK_BIN,
  startServerProcess,
  type ServerProcess,
} from './support/server-process.js';

const dir = mkdtempSync(join(tmpdir(), 'runback-e2e-log-'));
let server: ServerProcess;
let token: string;

/** The members of a `--json` line these tests read. */
interface CliLine {
  readonly verdict?: string;
  readonly ok?: boolean;
  readonly errors?: readonly { readonly check?: string; readonly code: string }[];
}

/** Runs the built CLI with no network: nothing but its arguments and files. */
function runback(args: string[]) {
  const out = spawnSync(process.execPath, [RUNBACK_BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', HTTP_PROXY: 'http://127.0.0.1:9' },
  });
  const json = (out.stdout === '' ? {} : JSON.parse(out.stdout)) as CliLine;
  return { status: out.status, json };
}

async function recordRun(name: string): Promise<string> {
  const sink = new HttpSink({ url: server.url, apiKey: token, batchEvents: 2 });
  await record(
    { name, input: { applicant: name }, out: join(dir, `${name}.local.json`), sink },
    async () => {
      const { score } = await tool('get_credit_score', { applicant_id: name }, async () => ({
        score: 700 + name.length,
      }));
      return { decision: score >= 700 ? 'approve' : 'decline' };
    },
  );
  const delivered = await sink.close();
  return delivered.runId;
}

async function get(path: string, auth = true): Promise<Response> {
  const res = await fetch(`${server.url}${path}`, {
    headers: auth ? { authorization: `Bearer ${token}` } : {},
  });
  expect(res.status, path).toBe(200);
  return res;
}

async function save(name: string, res: Response): Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, await res.text());
  return file;
}

beforeAll(async () => {
  server = await startServerProcess({
    RUNBACK_DATA_DIR: join(dir, 'data'),
    RUNBACK_ADMIN_TOKEN: ADMIN_TOKEN,
    RUNBACK_LOG_ORIGIN: 'audit.example.test/log',
  });
  token = await issueToken(server, 'e2e-log');
});

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

describe('SDK → API → log proof → runback verify --proof --log-key', () => {
  it('verifies offline, refuses a foreign proof and an edited checkpoint, and proves the log grew', async () => {
    const first = await recordRun('alpha');
    const second = await recordRun('beta');
    const oldCheckpoint = await save('old.checkpoint', await get('/api/log/checkpoint', false));

    const third = await recordRun('gamma');
    const recordFile = await save('gamma.record.json', await get(`/api/runs/${third}/export`));
    const proofFile = await save('gamma.proof.json', await get(`/api/log/proof/${third}`));
    const keyFile = await save(
      'service.pub.pem',
      await get('/.well-known/runback-audit-key.pem', false),
    );
    const newCheckpoint = await save('new.checkpoint', await get('/api/log/checkpoint', false));

    const ok = runback([
      'verify',
      '--json',
      recordFile,
      '--proof',
      proofFile,
      '--log-key',
      keyFile,
      '--pubkey',
      keyFile,
    ]);
    expect(ok.status).toBe(0);
    expect(ok.json).toMatchObject({
      verdict: 'valid',
      checks: { proof: true },
      errors: [],
      proof: { ok: true, checkpoint: { origin: 'audit.example.test/log', size: 3 } },
    });

    // The proof of another run is not this record's.
    const foreignFile = await save('alpha.proof.json', await get(`/api/log/proof/${first}`));
    const foreign = runback([
      'verify',
      '--json',
      recordFile,
      '--proof',
      foreignFile,
      '--log-key',
      keyFile,
    ]);
    expect(foreign.status).toBe(1);
    expect(foreign.json.verdict).toBe('invalid');
    expect(foreign.json.errors).toEqual([
      expect.objectContaining({ check: 'proof', code: 'PROOF_HEAD_MISMATCH' }),
    ]);

    // A checkpoint edited after signing (another root) is refused.
    const doc = JSON.parse(await (await get(`/api/log/proof/${third}`)).text()) as {
      checkpoint: string;
    };
    const lines = doc.checkpoint.split('\n');
    lines[2] = Buffer.alloc(32, 7).toString('base64');
    const edited = join(dir, 'edited.proof.json');
    writeFileSync(edited, JSON.stringify({ ...doc, checkpoint: lines.join('\n') }));
    const refused = runback([
      'verify',
      '--json',
      recordFile,
      '--proof',
      edited,
      '--log-key',
      keyFile,
    ]);
    expect(refused.status).toBe(1);
    expect(refused.json.errors).toEqual([
      expect.objectContaining({ check: 'proof', code: 'CHECKPOINT_SIGNATURE_INVALID' }),
    ]);

    // The log only grew between the two checkpoints fetched above: the API's consistency
    // proof carries exactly those two notes, and the CLI accepts it offline.
    const consistencyFile = await save(
      'consistency.json',
      await get('/api/log/consistency?from=2', false),
    );
    const consistency = JSON.parse(
      (await import('node:fs')).readFileSync(consistencyFile, 'utf8'),
    ) as { old_checkpoint: string; new_checkpoint: string };
    const fs = await import('node:fs');
    expect(consistency.old_checkpoint).toBe(fs.readFileSync(oldCheckpoint, 'utf8'));
    expect(consistency.new_checkpoint).toBe(fs.readFileSync(newCheckpoint, 'utf8'));
    const grew = runback([
      'log',
      'verify',
      '--json',
      '--proof',
      consistencyFile,
      '--log-key',
      keyFile,
    ]);
    expect(grew.status).toBe(0);
    expect(grew.json).toMatchObject({ ok: true, checkpoint: { size: 3 } });
    // With the old checkpoint's root replaced, the same check fails.
    const forged = JSON.stringify({
      ...consistency,
      old_checkpoint: consistency.old_checkpoint.replace(
        /^(.*\n.*\n)(.*)\n/,
        (_m, a: string) => `${a}${Buffer.alloc(32, 9).toString('base64')}\n`,
      ),
    });
    const forgedFile = join(dir, 'forged-consistency.json');
    writeFileSync(forgedFile, forged);
    const notGrew = runback([
      'log',
      'verify',
      '--json',
      '--proof',
      forgedFile,
      '--log-key',
      keyFile,
    ]);
    expect(notGrew.status).toBe(1);
    expect(notGrew.json.ok).toBe(false);
    // One request for both: the proof with ?from=2 carries the consistency proof from the
    // old checkpoint; the CLI accepts the document as a proof, and its consistency member.
    const both = JSON.parse(await (await get(`/api/log/proof/${third}?from=2`)).text()) as {
      consistency: unknown;
    };
    const bothFile = join(dir, 'gamma.proof-from-2.json');
    writeFileSync(bothFile, JSON.stringify(both));
    expect(
      runback(['verify', '--json', recordFile, '--proof', bothFile, '--log-key', keyFile]).json,
    ).toMatchObject({ checks: { proof: true }, errors: [] });
    const fromFile = join(dir, 'from-2.consistency.json');
    writeFileSync(fromFile, JSON.stringify(both.consistency));
    expect(
      runback(['log', 'verify', '--json', '--proof', fromFile, '--log-key', keyFile]),
    ).toMatchObject({ status: 0, json: { ok: true } });
    expect(second).not.toBe(first);
  });
});
