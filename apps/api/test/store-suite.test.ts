// The same cases against SQLite and against PostgreSQL: ingest, seal, export, isolation,
// idempotency, append-only storage and every bad input of the service.
import { verifyJson } from '@runback/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, toolEvent, type TestApp } from './support/app.js';
import {
  postgresUnavailable,
  testDatabase,
  type DatabaseKind,
  type TestDatabase,
} from './support/databases.js';

const pgMissing = await postgresUnavailable();
if (pgMissing !== null) console.warn(`store suite: PostgreSQL cases cannot run: ${pgMissing}`);
const kinds: DatabaseKind[] = pgMissing === null ? ['sqlite', 'postgres'] : ['sqlite'];

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

describe.each(kinds)('store suite on %s', (kind) => {
  let db: TestDatabase;
  let t: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    db = await testDatabase(kind);
    t = testApp(db.store);
    alice = await t.token('alice');
    bob = await t.token('bob');
  });
  afterAll(async () => {
    await db?.cleanup();
  });

  async function startRun(token = alice, name = 'refund-check'): Promise<string> {
    const res = await t.call('POST', '/api/runs', { token, body: { name, input: { order: 17 } } });
    expect(res.status).toBe(201);
    return (await json(res))['run_id'] as string;
  }

  async function append(
    runId: string,
    events: unknown[],
    key: string,
    token = alice,
  ): Promise<Response> {
    return t.call('POST', `/api/runs/${runId}/events`, {
      token,
      body: { events },
      headers: { 'idempotency-key': key },
    });
  }

  async function eventCount(runId: string): Promise<number> {
    return Number(
      (
        await db.store.getRun(
          (await db.store.findApiKey(alice.split('_')[1] as string))!.project_id,
          runId,
        )
      )?.event_count,
    );
  }

  it('ingests, seals and signs; the export verifies valid with the service key', async () => {
    const runId = await startRun();
    expect((await append(runId, [toolEvent(1), toolEvent(2)], 'b1')).status).toBe(201);
    expect((await append(runId, [toolEvent(3, { seq: 10 })], 'b2')).status).toBe(201);
    const fin = await t.call('POST', `/api/runs/${runId}/finish`, {
      token: alice,
      body: { status: 'success', output: { refund: true } },
    });
    expect(fin.status).toBe(200);
    expect(await json(fin)).toMatchObject({
      run_id: runId,
      status: 'success',
      event_count: 5,
      sealed: true,
    });
    const exp = await t.call('GET', `/api/runs/${runId}/export`, { token: alice });
    expect(exp.status).toBe(200);
    const text = await exp.text();
    const result = verifyJson(text, { pinned: [t.keys.current!.pem] });
    expect(result.verdict).toBe('valid');
    const record = JSON.parse(text) as {
      events: { seq: number; type: string }[];
      run: Record<string, unknown>;
    };
    expect(record.events.map((e) => e.seq)).toEqual([0, 1, 2, 10, 11]);
    expect(record.run).toMatchObject({ status: 'success', output: { refund: true } });
    // Not pinned: the same record is intact but its signer unproven.
    expect(verifyJson(text).verdict).toBe('unverified');
  });

  it('GET /api/runs/:id gives the runback inspect summary of the record', async () => {
    const runId = await startRun();
    await append(runId, [toolEvent(1)], 'k');
    const running = await json(await t.call('GET', `/api/runs/${runId}`, { token: alice }));
    expect(running).toMatchObject({
      run: { run_id: runId, status: 'running' },
      event_count: 2,
      tools: [{ name: 'lookup', calls: 1, errors: 0 }],
    });
    await t.call('POST', `/api/runs/${runId}/finish`, {
      token: alice,
      body: { status: 'error', error: { name: 'Error', message: 'declined' } },
    });
    const sealed = await json(await t.call('GET', `/api/runs/${runId}`, { token: alice }));
    expect(sealed).toMatchObject({
      run: { status: 'error' },
      event_count: 3,
      chain: { verdict: 'valid' },
    });
  });

  it('lists runs newest first with filters and cursor pagination', async () => {
    const project = await t.token('lister');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await startRun(project, i % 2 === 0 ? 'even' : 'odd'));
    await t.call('POST', `/api/runs/${ids[0]}/finish`, {
      token: project,
      body: { status: 'success' },
    });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await json(await t.call('GET', `/api/runs?limit=2${query}`, { token: project }));
      seen.push(...(page['runs'] as { run_id: string }[]).map((r) => r.run_id));
      cursor = page['next_cursor'] as string | null;
    } while (cursor !== null);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).toHaveLength(5);
    const even = await json(await t.call('GET', '/api/runs?name=even', { token: project }));
    expect((even['runs'] as unknown[]).length).toBe(3);
    const done = await json(await t.call('GET', '/api/runs?status=success', { token: project }));
    expect((done['runs'] as { run_id: string }[]).map((r) => r.run_id)).toEqual([ids[0]]);
    const future = await json(
      await t.call('GET', '/api/runs?started_after=2999-01-01T00:00:00.000Z', { token: project }),
    );
    expect(future['runs']).toEqual([]);
    const bad = await t.call('GET', '/api/runs?cursor=%%%', { token: project });
    expect(bad.status).toBe(400);
  });

  it('a 9 MiB body is refused with 413 and nothing is written', async () => {
    const runId = await startRun();
    const before = await eventCount(runId);
    const big = JSON.stringify({ events: [toolEvent(1, { output: 'x'.repeat(9 * 1024 * 1024) })] });
    const res = await t.call('POST', `/api/runs/${runId}/events`, {
      token: alice,
      body: big,
      headers: { 'idempotency-key': 'big' },
    });
    expect(res.status).toBe(413);
    expect(await json(res)).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    expect(await eventCount(runId)).toBe(before);
    const verify = await t.call('POST', '/api/audit/verify', { body: big });
    expect(verify.status).toBe(413);
  });

  it('malformed JSON is a 400 with a message', async () => {
    const runId = await startRun();
    const res = await t.call('POST', `/api/runs/${runId}/events`, {
      token: alice,
      body: '{"events": [',
      headers: { 'idempotency-key': 'm' },
    });
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toMatchObject({ error: { code: 'MALFORMED_JSON' } });
    expect((body['error'] as { message: string }).message).toMatch(/^expected a JSON body, got /);
    const dup = await t.call('POST', '/api/runs', {
      token: alice,
      body: '{"name":"a","name":"b"}',
    });
    expect(dup.status).toBe(400);
  });

  it('an event missing `type` is a 400 naming its index and member; nothing is written', async () => {
    const runId = await startRun();
    const before = await eventCount(runId);
    const bad = toolEvent(2);
    delete bad['type'];
    const res = await append(runId, [toolEvent(1), bad], 'missing-type');
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body).toMatchObject({ error: { code: 'EVENT_INVALID' } });
    expect((body['error'] as { message: string }).message).toMatch(
      /^event 1: member type: expected string, got undefined/,
    );
    expect(await eventCount(runId)).toBe(before);
    // The key was not spent by the refused batch.
    expect((await append(runId, [toolEvent(1)], 'missing-type')).status).toBe(201);
  });

  it('refuses events of the wrong shape with the member named', async () => {
    const runId = await startRun();
    const cases: [unknown, RegExp][] = [
      [toolEvent(0, { tool_name: 7 }), /^event 0: member tool_name: expected string, got number/],
      [{ ...toolEvent(0), type: 'llm' }, /^event 0: member model: /],
      [
        toolEvent(0, { type: 'env', kind: 'weather', key: 'k', output: 1 }),
        /^event 0: member kind: /,
      ],
      [toolEvent(0, { schema_version: 2 }), /^event 0: member schema_version: expected 1/],
      [toolEvent(0, { type: 'run', phase: 'end' }), /^event 0: member type: .*"run"/],
      [toolEvent(0, { run_id: 'run_other' }), /^event 0: member run_id: /],
      [toolEvent(0, { key_projection: { keep: 'x' } }), /^event 0: member key_projection.keep: /],
      ['text', /^event 0: expected an object, got string/],
    ];
    for (const [n, [event, message]] of cases.entries()) {
      const res = await append(runId, [event], `shape-${n}`);
      expect(res.status).toBe(400);
      expect(((await json(res))['error'] as { message: string }).message).toMatch(message);
    }
    expect(await eventCount(runId)).toBe(1);
  });

  it('no key, a malformed key, a wrong key and a revoked key are 401', async () => {
    const noKey = await t.call('GET', '/api/runs');
    expect(noKey.status).toBe(401);
    expect(await json(noKey)).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect((await t.call('GET', '/api/runs', { token: 'nope' })).status).toBe(401);
    const wrong = alice.slice(0, -4) + (alice.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await t.call('GET', '/api/runs', { token: wrong })).status).toBe(401);
    expect((await t.call('POST', '/api/runs', { token: wrong, body: { name: 'x' } })).status).toBe(
      401,
    );
    const carol = await t.token('carol');
    expect((await t.call('GET', '/api/runs', { token: carol })).status).toBe(200);
    const id = carol.split('_')[1] as string;
    const revoke = await t.call('DELETE', `/api/admin/api-keys/${id}`, {
      token: 'test-admin-token-0123456789',
    });
    expect(revoke.status).toBe(200);
    expect((await t.call('GET', '/api/runs', { token: carol })).status).toBe(401);
  });

  it("another project's run is a 404, on every route, and nothing is written", async () => {
    const runId = await startRun(alice);
    const before = await eventCount(runId);
    for (const [method, path, body] of [
      ['GET', `/api/runs/${runId}`, undefined],
      ['GET', `/api/runs/${runId}/export`, undefined],
      ['POST', `/api/runs/${runId}/events`, { events: [toolEvent(1)] }],
      ['POST', `/api/runs/${runId}/finish`, { status: 'success' }],
    ] as const) {
      const res = await t.call(method, path, {
        token: bob,
        body,
        headers: { 'idempotency-key': 'x' },
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await json(res)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    const missing = await t.call('GET', '/api/runs/run_doesnotexist00', { token: bob });
    expect(await missing.json()).toEqual({
      error: {
        code: 'NOT_FOUND',
        message: 'expected a run "run_doesnotexist00" in this project, got none',
      },
    });
    expect((await json(await t.call('GET', '/api/runs', { token: bob })))['runs']).toEqual([]);
    expect(await eventCount(runId)).toBe(before);
  });

  it('appending to a finished run is a 409 and writes nothing; finishing twice is a 409', async () => {
    const runId = await startRun();
    await t.call('POST', `/api/runs/${runId}/finish`, {
      token: alice,
      body: { status: 'success' },
    });
    const res = await append(runId, [toolEvent(1)], 'late');
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ error: { code: 'RUN_SEALED' } });
    expect(
      (
        await t.call('POST', `/api/runs/${runId}/finish`, {
          token: alice,
          body: { status: 'success' },
        })
      ).status,
    ).toBe(409);
    expect(await eventCount(runId)).toBe(2);
    const text = await (await t.call('GET', `/api/runs/${runId}/export`, { token: alice })).text();
    expect(verifyJson(text, t.keys.trust).verdict).toBe('valid');
  });

  it('a retried batch is applied once and answered with the first answer', async () => {
    const runId = await startRun();
    const first = await append(runId, [toolEvent(1), toolEvent(2)], 'retry-me');
    expect(first.status).toBe(201);
    const firstBody = await json(first);
    const retries = await Promise.all(
      [1, 2, 3].map(() => append(runId, [toolEvent(1), toolEvent(2)], 'retry-me')),
    );
    for (const retry of retries) {
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await json(retry)).toEqual(firstBody);
    }
    expect(await eventCount(runId)).toBe(3);
    const reused = await append(runId, [toolEvent(9)], 'retry-me');
    expect(reused.status).toBe(422);
    expect(await json(reused)).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect((await append(runId, [toolEvent(3)], '')).status).toBe(400);
    expect(await eventCount(runId)).toBe(3);
  });

  it('a seq already used is a 409 and the batch is not applied', async () => {
    const runId = await startRun();
    expect((await append(runId, [toolEvent(1, { seq: 5 })], 's1')).status).toBe(201);
    const res = await append(runId, [toolEvent(2, { seq: 6 }), toolEvent(3, { seq: 5 })], 's2');
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ error: { code: 'SEQ_TAKEN' } });
    expect(await eventCount(runId)).toBe(2);
  });

  it('concurrent appends to one run are serialised: nothing lost, duplicated or out of order', async () => {
    const runId = await startRun();
    const batches = Array.from({ length: 20 }, (_, b) =>
      append(runId, [toolEvent(b * 2), toolEvent(b * 2 + 1)], `c${b}`),
    );
    for (const res of await Promise.all(batches)) expect(res.status).toBe(201);
    await t.call('POST', `/api/runs/${runId}/finish`, {
      token: alice,
      body: { status: 'success' },
    });
    const text = await (await t.call('GET', `/api/runs/${runId}/export`, { token: alice })).text();
    expect(verifyJson(text, t.keys.trust).verdict).toBe('valid');
    const record = JSON.parse(text) as { events: { seq: number; input?: { i: number } }[] };
    expect(record.events).toHaveLength(42);
    expect(new Set(record.events.map((e) => e.seq)).size).toBe(42);
    const inputs = record.events.flatMap((e) =>
      e.input === undefined || e.input.i === undefined ? [] : [e.input.i],
    );
    expect([...inputs].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('the database refuses UPDATE and DELETE on the events table', async () => {
    const runId = await startRun();
    await expect(db.raw(`UPDATE events SET body = '{}' WHERE run_id = '${runId}'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(db.raw(`DELETE FROM events WHERE run_id = '${runId}'`)).rejects.toThrow(
      /append-only/,
    );
    if (kind === 'postgres')
      await expect(db.raw('TRUNCATE events CASCADE')).rejects.toThrow(/append-only/);
    expect(await eventCount(runId)).toBe(1);
    const page = await db.store.eventsByPosition(runId, -1, 10);
    expect(JSON.parse(page[0]!.body)).toMatchObject({ type: 'run', phase: 'start' });
  });

  it('health, readiness and metrics answer', async () => {
    expect(await json(await t.call('GET', '/healthz'))).toEqual({ status: 'ok' });
    expect(await json(await t.call('GET', '/readyz'))).toEqual({ status: 'ready', database: kind });
    const metrics = await (await t.call('GET', '/metrics')).text();
    expect(metrics).toMatch(
      /runback_http_requests_total\{route="\/api\/runs",method="POST",status="201"\} \d+/,
    );
    expect(metrics).toMatch(/runback_events_ingested_total \d+/);
    expect(metrics).toMatch(/runback_http_request_duration_seconds_bucket/);
  });
});
