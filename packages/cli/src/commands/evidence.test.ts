// runback verify on evidence: bundles, log proofs (offline, with the network unplugged),
// anchors, an expected head and release manifests — genuine files accepted, edited ones
// refused.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { generateEd25519KeyPair, privateKeyToPem, publicKeyToPem, sealRecord } from '@runback/sign';
import { describe, expect, it } from 'vitest';
import { fakeIO, realisticRun, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

const SIGNER = generateEd25519KeyPair(new Uint8Array(32).fill(12));
const LOG = generateEd25519KeyPair(new Uint8Array(32).fill(13));
const BIN = new URL('../../dist/bin.js', import.meta.url).pathname;
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

async function cli(args: string[]) {
  const io = fakeIO();
  const status = await runCli(args, io);
  return { status, out: io.out(), err: io.err() };
}

/** Signed records, a log with a checkpoint and a proof, a bundle and anchors, all on disk. */
async function world() {
  const dir = tempDir();
  const p = (name: string) => join(dir, name);
  writeFileSync(p('signer.pub.pem'), publicKeyToPem(SIGNER.publicKey));
  writeFileSync(p('log.key.pem'), privateKeyToPem(LOG.privateKey));
  writeFileSync(p('log.pub.pem'), publicKeyToPem(LOG.publicKey));
  const { run, events } = realisticRun();
  const records = ['run_e1', 'run_e2'].map((id) => {
    const record = sealRecord(
      { run: { ...run, run_id: id }, events: events.map((e) => ({ ...e, run_id: id })) },
      {
        generatedAt: '2026-06-14T02:47:14.000Z',
        signer: { alg: 'Ed25519', privateKey: SIGNER.privateKey },
      },
    );
    writeFileSync(p(`${id}.json`), JSON.stringify(record, null, 2));
    return p(`${id}.json`);
  });
  const ok = async (args: string[]) => {
    const r = await cli(args);
    expect({ args, status: r.status, err: r.err }).toEqual({ args, status: 0, err: '' });
  };
  await ok(['log', 'init', p('log'), '--origin', 'runback.test/evidence']);
  await ok(['log', 'append', p('log'), ...records]);
  await ok(['log', 'checkpoint', p('log'), '--key', p('log.key.pem')]);
  await ok(['log', 'prove', p('log'), 'run_e1', '-o', p('proof.json')]);
  await ok([
    'bundle',
    records[0]!,
    '--proof',
    p('proof.json'),
    '-o',
    p('run_e1.tar.gz'),
    '--pubkey',
    p('signer.pub.pem'),
  ]);
  await ok(['anchor', p('run_e1.tar.gz'), records[1]!, '--out', p('anchors')]);
  return { dir, p, records };
}

describe('runback verify with evidence', () => {
  it('verifies a bundle with its proof, and refuses a tampered one', async () => {
    const { p } = await world();
    const good = await cli([
      'verify',
      p('run_e1.tar.gz'),
      '--pubkey',
      p('signer.pub.pem'),
      '--log-key',
      p('log.pub.pem'),
      '--json',
    ]);
    expect(good.status).toBe(0);
    expect(JSON.parse(good.out)).toMatchObject({
      kind: 'bundle',
      verdict: 'valid',
      checks: { bundle: true, proof: true },
    });
    // Human output names the bundle and the proof.
    const human = await cli([
      'verify',
      p('run_e1.tar.gz'),
      '--pubkey',
      p('signer.pub.pem'),
      '--log-key',
      p('log.pub.pem'),
    ]);
    expect(human.out).toContain('bundle');
    expect(human.out).toContain('proof matches (log runback.test/evidence, size 2)');
    // Flip one byte of the report inside the tar (not the record): SHA256SUMS catches it.
    const tar = gunzipSync(readFileSync(p('run_e1.tar.gz')));
    const at = tar.indexOf(Buffer.from('# Run report'));
    tar[at + 2] = 'X'.charCodeAt(0);
    writeFileSync(p('tampered.tar.gz'), gzipSync(tar));
    const bad = await cli([
      'verify',
      p('tampered.tar.gz'),
      '--pubkey',
      p('signer.pub.pem'),
      '--json',
    ]);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({
      verdict: 'invalid',
      errors: [{ check: 'bundle', code: 'BUNDLE_SUMS_MISMATCH' }],
    });
  });

  it('checks a record against its proof fully offline, with the network unplugged', async () => {
    const { p, records } = await world();
    const args = [
      'verify',
      records[0]!,
      '--proof',
      p('proof.json'),
      '--log-key',
      p('log.pub.pem'),
      '--pubkey',
      p('signer.pub.pem'),
      '--json',
    ];
    const r = spawnSync('unshare', ['--net', process.execPath, BIN, ...args], { encoding: 'utf8' });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
    expect(
      execFileSync('unshare', ['--net', 'cat', '/proc/net/dev'], { encoding: 'utf8' }),
    ).not.toMatch(/eth|ens|wlan/);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'valid', checks: { proof: true } });
    // The proof of run_e1 does not prove run_e2, and a proof needs the log key.
    const other = await cli([
      'verify',
      records[1]!,
      '--proof',
      p('proof.json'),
      '--log-key',
      p('log.pub.pem'),
      '--json',
    ]);
    expect(other.status).toBe(1);
    expect(JSON.parse(other.out)).toMatchObject({
      errors: [{ check: 'proof', code: 'PROOF_HEAD_MISMATCH' }],
    });
    expect((await cli(['verify', records[0]!, '--proof', p('proof.json')])).status).toBe(64);
    const wrongKey = await cli([
      'verify',
      records[0]!,
      '--proof',
      p('proof.json'),
      '--log-key',
      p('signer.pub.pem'),
      '--json',
    ]);
    expect(JSON.parse(wrongKey.out)).toMatchObject({
      errors: [{ code: 'CHECKPOINT_NOT_SIGNED_BY_LOG' }],
    });
  });

  it('accepts the genuine anchors, head and manifest, and refuses edited ones', async () => {
    const { p, records } = await world();
    const pin = ['--pubkey', p('signer.pub.pem')];
    const record = JSON.parse(readFileSync(records[1]!, 'utf8')) as {
      manifest: { content_digest: string };
    };
    expect(
      (await cli(['verify', records[1]!, '--anchors', p('anchors/heads.jsonl'), ...pin])).status,
    ).toBe(0);
    expect(
      (
        await cli([
          'verify',
          p('run_e1.tar.gz'),
          '--anchors',
          p('anchors/heads.jsonl'),
          '--manifest',
          p('anchors/release.json'),
          ...pin,
        ])
      ).status,
    ).toBe(0);
    expect(
      (await cli(['verify', records[1]!, '--manifest', p('anchors/release.json'), ...pin])).status,
    ).toBe(0);
    expect(
      (await cli(['verify', records[1]!, '--expect-head', record.manifest.content_digest, ...pin]))
        .status,
    ).toBe(0);
    expect(readFileSync(p('anchors/heads.sha256'), 'utf8')).toBe(
      `${sha(readFileSync(p('anchors/heads.jsonl')))}  heads.jsonl\n`,
    );

    const other = await cli([
      'verify',
      records[0]!,
      '--expect-head',
      record.manifest.content_digest,
      '--json',
    ]);
    expect(JSON.parse(other.out)).toMatchObject({
      verdict: 'invalid',
      errors: [{ check: 'expect_head', code: 'EXPECT_HEAD_MISMATCH' }],
    });

    // An edited heads.jsonl no longer matches heads.sha256 beside it.
    const heads = readFileSync(p('anchors/heads.jsonl'), 'utf8');
    writeFileSync(p('anchors/heads.jsonl'), heads.replace(/"event_count":\d+/, '"event_count":99'));
    const edited = await cli([
      'verify',
      records[1]!,
      '--anchors',
      p('anchors/heads.jsonl'),
      ...pin,
      '--json',
    ]);
    expect(edited.status).toBe(1);
    expect(JSON.parse(edited.out).errors.map((e: { check: string }) => e.check)).toEqual([
      'anchors',
    ]);

    // A manifest whose pinned report digest was edited refuses the bundle.
    const release = readFileSync(p('anchors/release.json'), 'utf8');
    const report = /"report\.md":\{"sha256":"([0-9a-f]{64})"/.exec(release)?.[1] ?? '';
    writeFileSync(p('anchors/release.json'), release.replace(report, '0'.repeat(64)));
    const manifest = await cli([
      'verify',
      p('run_e1.tar.gz'),
      '--manifest',
      p('anchors/release.json'),
      ...pin,
      '--json',
    ]);
    expect(manifest.status).toBe(1);
    expect(JSON.parse(manifest.out)).toMatchObject({
      errors: [{ check: 'manifest', code: 'MANIFEST_MISMATCH' }],
    });
  });

  it('leaves a plain record check to runback-verify, unchanged', async () => {
    const { p, records } = await world();
    const r = await cli(['verify', records[0]!, '--pubkey', p('signer.pub.pem'), '--json']);
    expect(r.status).toBe(0);
    expect(Object.keys(JSON.parse(r.out) as object)).toContain('checks');
    expect(JSON.parse(r.out)).not.toHaveProperty('kind');
  });
});
