// Runs: start, append events, finish (seal and sign), list, summary, export. Every route
// needs an API key; a run of another project is answered exactly like a missing one (404).
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { verifyJson } from '@runback/verify';
import { authenticate } from '../auth/api-keys.js';
import { readJsonBody } from '../body.js';
import type { AppDeps, AppEnv } from '../deps.js';
import { ApiError } from '../errors.js';
import { transparencyLogOf } from '../log/for-app.js';
import { logSealedRun } from '../log/sealed-head.js';
import { checkEvents } from '../runs/event-checks.js';
import { exportStream } from '../runs/export.js';
import { RunService, runResource } from '../runs/service.js';
import {
  EventBatchSchema,
  RunFinishSchema,
  RunListQuerySchema,
  RunStartSchema,
} from '../schemas.js';
import { parseOr400 } from '../validate.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

function encodeCursor(startedAt: string, id: string): string {
  return btoa(JSON.stringify([startedAt, id])).replace(/=+$/, '');
}

function decodeCursor(cursor: string): { startedAt: string; id: string } {
  try {
    const value: unknown = JSON.parse(atob(cursor));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string'
    ) {
      return { startedAt: value[0], id: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new ApiError(
    400,
    'VALIDATION_FAILED',
    'member cursor: expected a next_cursor from a previous page, got something else',
  );
}

export function runRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const log = transparencyLogOf(deps);
  const runs = new RunService(deps.store, deps.keys, deps.now ?? (() => new Date()), log);
  const auth = createMiddleware<AppEnv>(async (c, next) => {
    const who = await authenticate(deps.store, c.req.header('authorization'));
    c.set('projectId', who.projectId);
    c.set('apiKeyId', who.keyId);
    await next();
  });
  app.use('/api/runs', auth);
  app.use('/api/runs/*', auth);

  app.post('/api/runs', async (c) => {
    const body = parseOr400(RunStartSchema, await readJsonBody(c.req.raw));
    const actor = { type: 'api_key' as const, id: c.get('apiKeyId') };
    const run = await runs.start(c.get('projectId'), body, actor);
    c.get('log').info({ run_id: run.run_id }, 'run started');
    return c.json(run, 201);
  });

  app.post('/api/runs/:id/events', async (c) => {
    const runId = c.req.param('id');
    const key = c.req.header('idempotency-key');
    if (key === undefined || !IDEMPOTENCY_KEY.test(key)) {
      throw new ApiError(
        400,
        'IDEMPOTENCY_KEY_REQUIRED',
        `expected an Idempotency-Key header of 1 to 200 visible ASCII characters, got ${key === undefined ? 'none' : 'another value'}`,
      );
    }
    const body = parseOr400(EventBatchSchema, await readJsonBody(c.req.raw));
    const events = checkEvents(body.events, runId);
    const { result, replayed } = await runs.append(c.get('projectId'), runId, key, events);
    if (!replayed) deps.metrics.eventsIngested(result.accepted);
    c.header('idempotent-replayed', replayed ? 'true' : 'false');
    return c.json(result, replayed ? 200 : 201);
  });

  app.post('/api/runs/:id/finish', async (c) => {
    const body = parseOr400(RunFinishSchema, await readJsonBody(c.req.raw));
    const run = await runs.finish(c.get('projectId'), c.req.param('id'), body);
    c.get('log').info(
      { run_id: run.run_id, status: run.status, events: run.event_count },
      'run sealed',
    );
    return c.json(run);
  });

  app.get('/api/runs', async (c) => {
    const query = parseOr400(RunListQuerySchema, c.req.query());
    const limit = query.limit ?? 50;
    const rows = await deps.store.listRuns(c.get('projectId'), {
      name: query.name,
      status: query.status,
      startedAfter: query.started_after,
      startedBefore: query.started_before,
      after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      limit,
    });
    const last = rows[rows.length - 1];
    return c.json({
      runs: rows.map(runResource),
      next_cursor:
        rows.length === limit && last !== undefined ? encodeCursor(last.started_at, last.id) : null,
    });
  });

  app.get('/api/runs/:id', async (c) => {
    const text = await runs.recordText(c.get('projectId'), c.req.param('id'));
    const summary = deps.summarize(JSON.parse(text), verifyJson(text, deps.keys.trust));
    return c.json(summary);
  });

  app.get('/api/runs/:id/export', async (c) => {
    const runId = c.req.param('id');
    const row = await runs.get(c.get('projectId'), runId);
    if (row.manifest === null || row.summary === null) {
      throw new ApiError(
        409,
        'RUN_NOT_SEALED',
        `expected run ${runId} to be finished and sealed, got a running run`,
      );
    }
    // Every export is logged: a run sealed before the log existed is appended now.
    if (log !== null) await logSealedRun(log, row);
    return c.body(exportStream(deps.store, runId, row.manifest, row.summary), 200, {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${runId}.record.json"`,
    });
  });

  return app;
}
