// The transparency log kept in the database, on SQLite and on PostgreSQL: every sealed run is
// logged once, checkpoints are C2SP signed notes under the service key, proofs verify with
// @runback/tlog's verifiers alone, the tables are append-only, and bad requests get the one
// error shape.
import { publicKeyFromPem } from '@runback/sign';
import {
  parseCheckpoint,
  readCheckpoint,
  recordHeadOf,
  verifyConsistencyProof,
  verifyInclusionProof,
} from '@runback/tlog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSigningKeyPem, testApp, toolEvent, type TestApp } from './support/app.js';
import { databaseKinds, testDatabase, type TestDatabase } from './support/databases.js';

const kinds = await databaseKinds('log suite');

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** Starts, fills and finishes a run; returns its id. */
async function sealedRun(t: TestApp, token: string, name = 'refund-check'): Promise<string> {
  const started = await t.call('POST', '/api/runs', { token, body: { name } });
  expect(started.status).toBe(201);
  const runId = (await json(started))['run_id'] as string;
  const appended = await t.call('POST', `/api/runs/${runId}/events`, {
    token,
    body: { events: [toolEvent(1), toolEvent(2)] },
    headers: { 'idempotency-key': `k-${runId}` },
  });
  expect(appended.status).toBe(201);
  const finished = await t.call('POST', `/api/runs/${runId}/finish`, {
    token,
    body: { status: 'success', output: { ok: true } },
  });
  expect(finished.status).toBe(200);
  return runId;
}

async function exported(t: TestApp, token: string, runId: string): Promise<unknown> {
  const res = await t.call('GET', `/api/runs/${runId}/export`, { token });
  expect(res.status).toBe(200);
  return JSON.parse(await res.text()) as unknown;
}

async function checkpointText(t: TestApp): Promise<string> {
  const res = await t.call('GET', '/api/log/checkpoint');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

describe.each(kinds)('transparency log on %s', (kind) => {
  let db: TestDatabase;
  let t: TestApp;
  let logKey: Uint8Array;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    db = await testDatabase(kind);
    t = testApp(db.store);
    logKey = publicKeyFromPem(t.keys.current!.pem);
    alice = await t.token('alice');
    bob = await t.token('bob');
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  it('signs an empty checkpoint before the first run, then logs each sealed run once', async () => {
    const empty = readCheckpoint(await checkpointText(t), { logKey });
    expect(empty.ok && empty.checkpoint.size).toBe(0);

    const runId = await sealedRun(t, alice);
    const record = await exported(t, alice, runId);
    await exported(t, alice, runId);
    const note = await checkpointText(t);
    const read = readCheckpoint(note, { logKey });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.checkpoint).toMatchObject({ origin: 'localhost/runback-audit-log', size: 1 });
    // The note's first line is the origin, then the size and the base64 root (C2SP).
    expect(note.split('\n').slice(0, 2)).toEqual(['localhost/runback-audit-log', '1']);
    expect(parseCheckpoint(read.note.text).ok).toBe(true);

    const proof = await t.call('GET', `/api/log/proof/${runId}`, { token: alice });
    expect(proof.status).toBe(200);
    const doc = await json(proof);
    expect(doc).toMatchObject({ leaf_index: 0, tree_size: 1, proof: [] });
    expect(verifyInclusionProof(doc, { logKey, expectHead: recordHeadOf(record) })).toMatchObject({
      ok: true,
      errors: [],
    });
    expect(await db.store.logSize()).toBe(1);
  });

  it('proves every run against the latest and older checkpoints, and the log only grew', async () => {
    const runs: string[] = [];
    for (let i = 0; i < 6; i++) runs.push(await sealedRun(t, i % 2 === 0 ? alice : bob, `r${i}`));
    const size = await db.store.logSize();
    expect(size).toBeGreaterThanOrEqual(7);
    const latest = readCheckpoint(await checkpointText(t), { logKey });
    expect(latest.ok && latest.checkpoint.size).toBe(size);
    const asJson = await json(
      await t.call('GET', '/api/log/checkpoint', { headers: { accept: 'application/json' } }),
    );
    expect(asJson).toMatchObject({ size, key_id: t.keys.current!.key_id });
    expect(asJson['root']).toMatch(/^[0-9a-f]{64}$/);

    for (const [i, runId] of runs.entries()) {
      const token = i % 2 === 0 ? alice : bob;
      const head = recordHeadOf(await exported(t, token, runId));
      const doc = await json(await t.call('GET', `/api/log/proof/${runId}`, { token }));
      expect(doc['tree_size']).toBe(size);
      expect(verifyInclusionProof(doc, { logKey, expectHead: head }).ok).toBe(true);
      // Against the checkpoint the run first appeared in.
      const index = doc['leaf_index'] as number;
      const old = await json(
        await t.call('GET', `/api/log/proof/${runId}?size=${index + 1}`, { token }),
      );
      expect(old['tree_size']).toBe(index + 1);
      expect(verifyInclusionProof(old, { logKey, expectHead: head }).ok).toBe(true);
      // With ?from=, the consistency proof from that older checkpoint rides along.
      const both = await json(
        await t.call('GET', `/api/log/proof/${runId}?from=${index + 1}`, { token }),
      );
      expect(verifyInclusionProof(both, { logKey, expectHead: head }).ok).toBe(true);
      expect(verifyConsistencyProof(both['consistency'], { logKey })).toMatchObject({
        ok: true,
        checkpoint: { size },
      });
      // Another run's proof is not this record's.
      const other = runs[(i + 1) % runs.length] as string;
      const otherToken = (i + 1) % 2 === 0 ? alice : bob;
      const foreign = await json(
        await t.call('GET', `/api/log/proof/${other}`, { token: otherToken }),
      );
      expect(verifyInclusionProof(foreign, { logKey, expectHead: head }).errors[0]?.code).toBe(
        'PROOF_HEAD_MISMATCH',
      );
    }
    for (let from = 1; from <= size; from++) {
      const res = await t.call('GET', `/api/log/consistency?from=${from}`);
      expect(res.status).toBe(200);
      const doc = await json(res);
      expect(verifyConsistencyProof(doc, { logKey })).toMatchObject({ ok: true });
      const partial = await json(await t.call('GET', `/api/log/consistency?from=1&to=${from}`));
      expect(verifyConsistencyProof(partial, { logKey }).checkpoint?.size).toBe(from);
    }
    expect(await db.store.logSize()).toBe(size);
  });

  it('keeps every proof valid while runs are sealed and proven at the same time', async () => {
    const ids = await Promise.all(
      Array.from({ length: 4 }, (_, i) => sealedRun(t, alice, `c${i}`)),
    );
    const more = Promise.all(Array.from({ length: 4 }, (_, i) => sealedRun(t, bob, `d${i}`)));
    const docs = await Promise.all(
      ids.flatMap((id) =>
        [0, 1].map(() => t.call('GET', `/api/log/proof/${id}`, { token: alice })),
      ),
    );
    await more;
    for (const res of docs) {
      expect(res.status).toBe(200);
      expect(verifyInclusionProof(await json(res), { logKey }).ok).toBe(true);
    }
    const leaves = await db.store.logLeafHashes(0, 1000);
    expect(leaves).toHaveLength(await db.store.logSize());
  });

  it('answers bad log requests with the one error shape', async () => {
    const firstRun = await sealedRun(t, alice);
    const size = await db.store.logSize();
    const cases: [string, string | undefined, number, string][] = [
      ['/api/log/consistency', undefined, 400, 'VALIDATION_FAILED'],
      ['/api/log/consistency?from=abc', undefined, 400, 'VALIDATION_FAILED'],
      ['/api/log/consistency?from=0', undefined, 400, 'TREE_SIZE_OUT_OF_RANGE'],
      [`/api/log/consistency?from=${size + 1}`, undefined, 400, 'TREE_SIZE_OUT_OF_RANGE'],
      ['/api/log/consistency?from=3&to=2', undefined, 400, 'TREE_SIZE_OUT_OF_RANGE'],
      ['/api/log/proof/run_nope', alice, 404, 'NOT_FOUND'],
      [`/api/log/proof/${firstRun}?from=${size + 1}`, alice, 400, 'TREE_SIZE_OUT_OF_RANGE'],
      [`/api/log/proof/${firstRun}?from=0`, alice, 400, 'TREE_SIZE_OUT_OF_RANGE'],
      [`/api/log/proof/${firstRun}?size=-1`, alice, 400, 'VALIDATION_FAILED'],
      ['/api/log/proof/run_nope', undefined, 401, 'UNAUTHORIZED'],
    ];
    for (const [path, token, status, code] of cases) {
      const res = await t.call('GET', path, token === undefined ? {} : { token });
      expect(res.status, path).toBe(status);
      const body = await json(res);
      expect(body, path).toEqual({ error: { code, message: expect.any(String) } });
    }
    // A run of another project is answered like a missing one.
    const mine = await sealedRun(t, alice);
    const theirs = await t.call('GET', `/api/log/proof/${mine}`, { token: bob });
    expect(theirs.status).toBe(404);
    // A proof against a checkpoint older than the run's leaf cannot exist.
    const leaf = await db.store.logLeafOf(mine);
    const early = await t.call('GET', `/api/log/proof/${mine}?size=${leaf!.leaf_index}`, {
      token: alice,
    });
    expect(early.status).toBe(400);
    expect((await json(early))['error']).toMatchObject({ code: 'TREE_SIZE_OUT_OF_RANGE' });
    // A running run is not logged.
    const started = await json(
      await t.call('POST', '/api/runs', { token: alice, body: { name: 'x' } }),
    );
    const running = await t.call('GET', `/api/log/proof/${started['run_id'] as string}`, {
      token: alice,
    });
    expect(running.status).toBe(409);
    expect((await json(running))['error']).toMatchObject({ code: 'RUN_NOT_SEALED' });
    expect(await db.store.logLeafOf(started['run_id'] as string)).toBeUndefined();
  });

  it('refuses UPDATE, DELETE and TRUNCATE of log leaves and checkpoints in the database', async () => {
    await sealedRun(t, alice);
    for (const table of ['log_leaves', 'log_checkpoints']) {
      const column = table === 'log_leaves' ? 'leaf_hash' : 'note';
      await expect(db.raw(`UPDATE ${table} SET ${column} = 'x'`)).rejects.toThrow(/append-only/);
      await expect(db.raw(`DELETE FROM ${table}`)).rejects.toThrow(/append-only/);
      if (kind === 'postgres')
        await expect(db.raw(`TRUNCATE ${table} CASCADE`)).rejects.toThrow(/append-only/);
    }
    // A second leaf for a logged run, or a second checkpoint for a size, is refused too.
    await expect(
      db.raw(
        `INSERT INTO log_checkpoints (tree_size, root_hash, note, created_at) VALUES (1, 'x', 'x', 'x')`,
      ),
    ).rejects.toThrow();
  });

  it('logs at export a run that was sealed while the service kept no log', async () => {
    const hmacOnly = testApp(db.store, { hmacKey: 'a-shared-secret-of-enough-length' });
    const token = await hmacOnly.token('carol');
    const runId = await sealedRun(hmacOnly, token);
    expect(await db.store.logLeafOf(runId)).toBeUndefined();
    const disabled = await hmacOnly.call('GET', '/api/log/checkpoint');
    expect(disabled.status).toBe(404);
    expect((await json(disabled))['error']).toMatchObject({ code: 'LOG_DISABLED' });

    const before = await db.store.logSize();
    await exported(t, token, runId);
    expect(await db.store.logLeafOf(runId)).toMatchObject({ leaf_index: before });
    expect(await db.store.logSize()).toBe(before + 1);
  });

  it('hands out every checkpoint under the current key after the service key is rotated', async () => {
    const before = await checkpointText(t);
    const oldRead = readCheckpoint(before, { logKey });
    const oldRun = await sealedRun(t, alice);
    const rotatedPem = newSigningKeyPem();
    const rotated = testApp(db.store, { ed25519PrivateKeyPem: rotatedPem });
    const newKey = publicKeyFromPem(rotated.keys.current!.pem);
    const now = readCheckpoint(await checkpointText(rotated), { logKey: newKey });
    expect(now.ok).toBe(true);
    expect(readCheckpoint(await checkpointText(rotated), { logKey }).ok).toBe(false);
    const size = await db.store.logSize();
    expect(now.ok && now.checkpoint.size).toBe(size);
    // An old run's proof against the first checkpoint it was in, now signed with the new key.
    const leaf = await db.store.logLeafOf(oldRun);
    const token = await rotated.token('alice');
    const proof = await json(
      await rotated.call('GET', `/api/log/proof/${oldRun}?size=${leaf!.leaf_index + 1}`, { token }),
    );
    expect(verifyInclusionProof(proof, { logKey: newKey })).toMatchObject({ ok: true });
    // New appends are signed with the new key; the log still only grew across the rotation.
    await sealedRun(rotated, token);
    const grew = await json(await rotated.call('GET', '/api/log/consistency?from=1'));
    expect(verifyConsistencyProof(grew, { logKey: newKey }).ok).toBe(true);
    expect(oldRead.ok).toBe(true);
  });

  it('refuses to sign under another origin than the one the log was started with', async () => {
    const renamed = testApp(
      db.store,
      { ed25519PrivateKeyPem: newSigningKeyPem() },
      { logOrigin: 'example.com/another-log' },
    );
    const answer = await renamed.call('GET', '/api/log/checkpoint');
    expect(answer.status).toBe(500);
    expect(((await json(answer))['error'] as { message: string }).message).toMatch(
      /expected RUNBACK_LOG_ORIGIN to be the log's origin "localhost\/runback-audit-log"/,
    );
  });

  it('appends nothing once the stored leaves no longer rebuild the last signed checkpoint', async () => {
    // Rows written around the service (INSERT is what the triggers still allow): a leaf for a
    // running run and a checkpoint of the new size over some other root.
    const size = await db.store.logSize();
    const last = await db.store.logCheckpoint();
    const started = await json(
      await t.call('POST', '/api/runs', { token: alice, body: { name: 'rogue' } }),
    );
    const digest = 'ab'.repeat(32);
    await db.raw(
      `INSERT INTO log_leaves (leaf_index, run_id, content_digest, cassette_digest, leaf_hash, logged_at)
       VALUES (${size}, '${started['run_id'] as string}', '${digest}', '${digest}', '${digest}', 'x')`,
    );
    await db.raw(
      `INSERT INTO log_checkpoints (tree_size, root_hash, note, created_at)
       VALUES (${size + 1}, '${digest}', '${last!.note.replace(/'/g, "''")}', 'x')`,
    );
    const runId = (
      await json(await t.call('POST', '/api/runs', { token: alice, body: { name: 'after' } }))
    )['run_id'] as string;
    const finished = await t.call('POST', `/api/runs/${runId}/finish`, {
      token: alice,
      body: { status: 'success' },
    });
    expect(finished.status).toBe(500);
    expect(((await json(finished))['error'] as { message: string }).message).toMatch(
      `expected the stored leaves to rebuild the checkpoint of size ${size + 1}, got another root`,
    );
    expect(await db.store.logLeafOf(runId)).toBeUndefined();
    expect(await db.store.logSize()).toBe(size + 1);
  });
});
