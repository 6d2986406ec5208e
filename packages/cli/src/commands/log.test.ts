// runback log end to end on disk: init → append → checkpoint → cosign → prove, the proof
// checked offline by @runback/tlog, consistency between checkpoints, and the refusals.
import { generateEd25519KeyPair, privateKeyToPem, publicKeyToPem, sealRecord } from '@runback/sign';
import { verifierKeyText, verifyInclusionProof } from '@runback/tlog';
import { readFileSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeIO, realisticRun, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

const LOG = generateEd25519KeyPair(new Uint8Array(32).fill(3));
const WITNESS = generateEd25519KeyPair(new Uint8Array(32).fill(4));

function setup() {
  const dir = tempDir();
  const files = {
    logKey: join(dir, 'log.key.pem'),
    logPub: join(dir, 'log.pub.pem'),
    witnessKey: join(dir, 'witness.key.pem'),
    witnessPub: join(dir, 'witness.pub.pem'),
    log: join(dir, 'log'),
  };
  writeFileSync(files.logKey, privateKeyToPem(LOG.privateKey));
  writeFileSync(files.logPub, publicKeyToPem(LOG.publicKey));
  writeFileSync(files.witnessKey, privateKeyToPem(WITNESS.privateKey));
  writeFileSync(files.witnessPub, publicKeyToPem(WITNESS.publicKey));
  return { dir, ...files };
}

/** A sealed record of the realistic run under run id `runId`, written to dir. */
function recordFile(dir: string, runId: string): string {
  const { run, events } = realisticRun();
  const rebased = events.map((e) => ({ ...e, run_id: runId }));
  const record = sealRecord(
    { run: { ...run, run_id: runId }, events: rebased },
    { generatedAt: '2026-06-14T02:47:14.000Z' },
  );
  const path = join(dir, `${runId}.json`);
  writeFileSync(path, JSON.stringify(record, null, 2));
  return path;
}

async function cli(args: string[]) {
  const io = fakeIO();
  const status = await runCli(args, io);
  return { status, out: io.out(), err: io.err() };
}

async function json(args: string[]) {
  const r = await cli([...args, '--json']);
  expect({ status: r.status, err: r.err }).toEqual({ status: 0, err: '' });
  return JSON.parse(r.out) as Record<string, unknown>;
}

describe('runback log', () => {
  it('logs records, signs and cosigns a checkpoint, and proves inclusion offline', async () => {
    const s = setup();
    const records = ['run_a', 'run_b', 'run_c'].map((id) => recordFile(s.dir, id));
    expect(await json(['log', 'init', s.log, '--origin', 'runback.test/log'])).toMatchObject({
      size: 0,
    });
    expect(await json(['log', 'append', s.log, ...records])).toMatchObject({ size: 3 });
    const cp = await json(['log', 'checkpoint', s.log, '--key', s.logKey]);
    expect(cp).toMatchObject({ origin: 'runback.test/log', size: 3 });
    await json([
      'log',
      'cosign',
      s.log,
      '--key',
      s.witnessKey,
      '--name',
      'witness.test/w',
      '--log-key',
      s.logPub,
      '--time',
      '1767607200',
    ]);
    const proofPath = join(s.dir, 'proof.json');
    expect(await json(['log', 'prove', s.log, records[1]!, '-o', proofPath])).toMatchObject({
      run_id: 'run_b',
      leaf_index: 1,
      tree_size: 3,
    });

    const proof = JSON.parse(readFileSync(proofPath, 'utf8')) as unknown;
    const record = JSON.parse(readFileSync(records[1]!, 'utf8')) as {
      manifest: { run_id: string; content_digest: string; replay: { cassette_digest: string } };
    };
    const head = {
      run_id: 'run_b',
      content_digest: record.manifest.content_digest,
      cassette_digest: record.manifest.replay.cassette_digest,
    };
    expect(
      verifyInclusionProof(proof, {
        logKey: LOG.publicKey,
        witnessKeys: [WITNESS.publicKey],
        expectHead: head,
      }),
    ).toMatchObject({ ok: true });
    expect(verifyInclusionProof(proof, { logKey: WITNESS.publicKey }).ok).toBe(false);
  });

  it('proves the log only grew since an old checkpoint, and catches a rewritten entry', async () => {
    const s = setup();
    await json(['log', 'init', s.log, '--origin', 'runback.test/log']);
    await json(['log', 'append', s.log, recordFile(s.dir, 'run_1'), recordFile(s.dir, 'run_2')]);
    await json(['log', 'checkpoint', s.log, '--key', s.logKey]);
    const old = join(s.dir, 'old-checkpoint');
    copyFileSync(join(s.log, 'checkpoint'), old);
    await json([
      'log',
      'append',
      s.log,
      recordFile(s.dir, 'run_3'),
      recordFile(s.dir, 'run_4'),
      recordFile(s.dir, 'run_5'),
    ]);
    await json(['log', 'checkpoint', s.log, '--key', s.logKey]);
    const consistency = join(s.dir, 'consistency.json');
    const ok = await json([
      'log',
      'verify',
      s.log,
      '--from',
      old,
      '--log-key',
      s.logPub,
      '--out',
      consistency,
    ]);
    expect(ok).toMatchObject({ ok: true, checkpoint: { size: 5 } });
    // The written proof verifies offline, without the log directory.
    expect(
      await json(['log', 'verify', '--proof', consistency, '--log-key', s.logPub]),
    ).toMatchObject({ ok: true });
    // Verifier key text works as --log-key too.
    const vkey = join(s.dir, 'log.vkey');
    writeFileSync(vkey, verifierKeyText('runback.test/log', LOG.publicKey) + '\n');
    expect(await json(['log', 'verify', '--proof', consistency, '--log-key', vkey])).toMatchObject({
      ok: true,
    });
    // A witness is required but absent.
    const missing = await cli([
      'log',
      'verify',
      '--proof',
      consistency,
      '--log-key',
      s.logPub,
      '--witness',
      s.witnessPub,
    ]);
    expect(missing.status).toBe(1);
    expect(missing.out).toContain('CHECKPOINT_WITNESS_MISSING');

    // Rewrite entry 0 (another record's head) and sign a new checkpoint over the edited log:
    // refused by checkpoint (the tree no longer extends the last checkpoint)…
    const entries = join(s.log, 'entries.jsonl');
    const lines = readFileSync(entries, 'utf8').split('\n');
    lines[0] = lines[0]!.replace(
      /"content_digest":"./,
      (m) => m.slice(0, -1) + (m.endsWith('0') ? '1' : '0'),
    );
    writeFileSync(entries, lines.join('\n'));
    const refused = await cli(['log', 'checkpoint', s.log, '--key', s.logKey, '--json']);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.out)).toMatchObject({ error: { code: 'LOG_NOT_APPEND_ONLY' } });
    // …and by prove, which will not write a proof that cannot verify.
    const prove = await cli(['log', 'prove', s.log, 'run_2', '--json']);
    expect(JSON.parse(prove.out)).toMatchObject({ error: { code: 'LOG_NOT_APPEND_ONLY' } });
  });

  it('refuses an invalid record, a second history for one run id, a wrong key and a missing log', async () => {
    const s = setup();
    await json(['log', 'init', s.log, '--origin', 'runback.test/log']);
    const good = recordFile(s.dir, 'run_x');
    const text = readFileSync(good, 'utf8');
    const tampered = join(s.dir, 'tampered.json');
    const edited = JSON.parse(text) as { events: Record<string, unknown>[] };
    edited.events[1] = { ...edited.events[1], seq: 1, span_id: 'edited' };
    writeFileSync(tampered, JSON.stringify(edited));
    const bad = await cli(['log', 'append', s.log, tampered, '--json']);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.out)).toMatchObject({ error: { code: 'LOG_RECORD_INVALID' } });

    await json(['log', 'append', s.log, good]);
    expect(await json(['log', 'append', s.log, good])).toMatchObject({
      size: 1,
      entries: [{ added: false }],
    });
    const other = join(s.dir, 'other.json');
    const { run, events } = realisticRun();
    const changed = sealRecord(
      {
        run: { ...run, run_id: 'run_x', name: 'another' },
        events: events.map((e) => ({
          ...e,
          run_id: 'run_x',
          ...(e.type === 'run' ? { name: 'another' } : {}),
        })),
      },
      { generatedAt: '2026-06-14T02:47:14.000Z' },
    );
    writeFileSync(other, JSON.stringify(changed));
    const taken = await cli(['log', 'append', s.log, other, '--json']);
    expect(JSON.parse(taken.out)).toMatchObject({ error: { code: 'LOG_RUN_ID_TAKEN' } });

    await json(['log', 'checkpoint', s.log, '--key', s.logKey]);
    const wrongKey = await cli(['log', 'checkpoint', s.log, '--key', s.witnessKey, '--json']);
    expect(JSON.parse(wrongKey.out)).toMatchObject({ error: { code: 'LOG_CHECKPOINT_KEY' } });
    const again = await cli(['log', 'init', s.log, '--origin', 'runback.test/log', '--json']);
    expect(JSON.parse(again.out)).toMatchObject({ error: { code: 'LOG_EXISTS' } });
    const none = await cli(['log', 'append', join(s.dir, 'nowhere'), good, '--json']);
    expect(JSON.parse(none.out)).toMatchObject({ error: { code: 'LOG_NOT_FOUND' } });
    expect((await cli(['log', 'init', s.log, '--origin', 'has space'])).status).toBe(64);
    expect((await cli(['log', 'frobnicate'])).status).toBe(64);
    expect(existsSync(join(s.log, '.lock'))).toBe(false);
  });
});
