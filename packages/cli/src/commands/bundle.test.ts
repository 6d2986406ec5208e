// runback bundle: the same record and artifacts give the same bytes, the bundle verifies, and
// missing, altered or escaping artifacts are refused.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { verifyBundle } from '@runback/bundle';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';
import { describe, expect, it } from 'vitest';
import { fakeIO, realisticRun, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

const KEY = generateEd25519KeyPair(new Uint8Array(32).fill(8));
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

function setup() {
  const dir = tempDir();
  const files = join(dir, 'out');
  mkdirSync(join(files, 'charts'), { recursive: true });
  const report = 'score 742, approved\n';
  const chart = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
  writeFileSync(join(files, 'decision.txt'), report);
  writeFileSync(join(files, 'charts', 'score.png'), chart);
  writeFileSync(join(files, 'unrelated.txt'), 'not named by the record');
  const { run, events } = realisticRun();
  const last = events.length - 1;
  const withArtifacts = events.map((e, i) =>
    i === last
      ? {
          ...e,
          artifacts: [
            { name: 'decision.txt', sha256: sha(report), bytes: report.length },
            { name: 'charts/score.png', sha256: sha(chart), bytes: chart.length },
          ],
        }
      : e,
  );
  const record = sealRecord(
    { run, events: withArtifacts },
    {
      generatedAt: '2026-06-14T02:47:14.000Z',
      signer: { alg: 'Ed25519', privateKey: KEY.privateKey },
    },
  );
  const recordPath = join(dir, 'record.json');
  writeFileSync(recordPath, JSON.stringify(record, null, 2));
  const pub = join(dir, 'signer.pub.pem');
  writeFileSync(pub, publicKeyToPem(KEY.publicKey));
  return { dir, files, recordPath, pub, runId: record.manifest.run_id };
}

async function cli(args: string[]) {
  const io = fakeIO();
  const status = await runCli(args, io);
  return { status, out: io.out(), err: io.err() };
}

describe('runback bundle', () => {
  it('writes identical bytes twice and a bundle that verifies with its artifacts', async () => {
    const s = setup();
    const a = join(s.dir, 'a.tar.gz');
    const b = join(s.dir, 'b.tar.gz');
    const first = await cli([
      'bundle',
      s.recordPath,
      '--artifacts',
      s.files,
      '-o',
      a,
      '--pubkey',
      s.pub,
      '--json',
    ]);
    expect({ status: first.status, err: first.err }).toEqual({ status: 0, err: '' });
    expect(
      (await cli(['bundle', s.recordPath, '--artifacts', s.files, '-o', b, '--pubkey', s.pub]))
        .status,
    ).toBe(0);
    const bytes = readFileSync(a);
    expect(readFileSync(b).equals(bytes)).toBe(true);
    const summary = JSON.parse(first.out) as { sha256: string; files: string[]; verdict: string };
    expect(summary.sha256).toBe(sha(bytes));
    expect(summary.verdict).toBe('valid');
    expect(summary.files).toContain(`${s.runId}/artifacts/charts/score.png`);
    expect(summary.files.some((f) => f.endsWith('unrelated.txt'))).toBe(false);
    const result = await verifyBundle(new Uint8Array(bytes), {
      verify: { pinned: [readFileSync(s.pub, 'utf8')] },
    });
    expect(result).toMatchObject({ verdict: 'valid', errors: [] });
    expect(result.files).toEqual(
      expect.arrayContaining([
        'report.md',
        'report.html',
        'README.txt',
        'SHA256SUMS',
        'record.json',
      ]),
    );
  });

  it('refuses a missing or altered artifact, and one that leads outside the folder', async () => {
    const s = setup();
    writeFileSync(join(s.files, 'decision.txt'), 'score 742, denied\n');
    const altered = await cli([
      'bundle',
      s.recordPath,
      '--artifacts',
      s.files,
      '-o',
      join(s.dir, 'x.tar.gz'),
      '--json',
    ]);
    expect(altered.status).toBe(1);
    expect(JSON.parse(altered.out)).toMatchObject({ error: { code: 'BUNDLE_ARTIFACT_MISMATCH' } });
    const missing = await cli([
      'bundle',
      s.recordPath,
      '--artifacts',
      s.dir,
      '-o',
      join(s.dir, 'y.tar.gz'),
      '--json',
    ]);
    expect(JSON.parse(missing.out)).toMatchObject({ error: { code: 'BUNDLE_ARTIFACT_MISMATCH' } });
    const outside = tempDir();
    mkdirSync(join(outside, 'charts'));
    writeFileSync(join(outside, 'charts', 'score.png'), 'x');
    const escape = join(s.dir, 'escape');
    mkdirSync(escape);
    symlinkSync(join(s.files, 'decision.txt'), join(escape, 'decision.txt'));
    symlinkSync(join(outside, 'charts'), join(escape, 'charts'));
    const escaped = await cli([
      'bundle',
      s.recordPath,
      '--artifacts',
      escape,
      '-o',
      join(s.dir, 'z.tar.gz'),
      '--json',
    ]);
    expect(escaped.status).toBe(1);
  });
});
