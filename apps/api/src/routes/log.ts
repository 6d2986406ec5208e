// The transparency log: its latest signed checkpoint and consistency proofs are public (like
// the published keys); a run's inclusion proof needs an API key of the run's project. A
// sealed run that is not logged yet (sealed before the log existed) is logged on request.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { keyId } from '@runback/sign';
import { authenticate } from '../auth/api-keys.js';
import type { AppDeps, AppEnv } from '../deps.js';
import { ApiError } from '../errors.js';
import { transparencyLogOf } from '../log/for-app.js';
import { logSealedRun } from '../log/sealed-head.js';
import type { TransparencyLog } from '../log/transparency-log.js';
import { LogConsistencyQuerySchema, LogProofQuerySchema } from '../schemas.js';
import { parseOr400 } from '../validate.js';

const PUBLIC = { 'access-control-allow-origin': '*', 'cache-control': 'no-cache' };

function enabled(log: TransparencyLog | null): TransparencyLog {
  if (log === null) {
    throw new ApiError(
      404,
      'LOG_DISABLED',
      'expected the service to keep a transparency log, got none (it signs checkpoints with an Ed25519 key, and this service has none)',
    );
  }
  return log;
}

export function logRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = createMiddleware<AppEnv>(async (c, next) => {
    const who = await authenticate(deps.store, c.req.header('authorization'));
    c.set('projectId', who.projectId);
    await next();
  });

  app.get('/api/log/checkpoint', async (c) => {
    const log = enabled(transparencyLogOf(deps));
    const cp = await log.checkpoint();
    if ((c.req.header('accept') ?? '').includes('application/json')) {
      return c.json(
        {
          origin: cp.origin,
          size: cp.size,
          root: cp.root,
          checkpoint: cp.note,
          key_id: keyId(log.publicKey),
        },
        200,
        PUBLIC,
      );
    }
    return c.body(cp.note, 200, { ...PUBLIC, 'content-type': 'text/plain; charset=utf-8' });
  });

  app.get('/api/log/consistency', async (c) => {
    const log = enabled(transparencyLogOf(deps));
    const query = parseOr400(LogConsistencyQuerySchema, c.req.query());
    return c.json(await log.consistency(query.from, query.to), 200, PUBLIC);
  });

  app.get('/api/log/proof/:run_id', auth, async (c) => {
    const log = enabled(transparencyLogOf(deps));
    const runId = c.req.param('run_id');
    const query = parseOr400(LogProofQuerySchema, c.req.query());
    const run = await deps.store.getRun(c.get('projectId'), runId);
    if (run === undefined) {
      throw new ApiError(
        404,
        'NOT_FOUND',
        `expected a run ${JSON.stringify(runId)} in this project, got none`,
      );
    }
    if (run.manifest === null) {
      throw new ApiError(
        409,
        'RUN_NOT_SEALED',
        `expected run ${runId} to be finished and sealed before it is logged, got a running run`,
      );
    }
    await logSealedRun(log, run);
    const leaf = await log.leafOf(runId);
    if (leaf === undefined) throw new Error(`run ${runId} was logged but has no leaf`);
    const inclusion = await log.inclusion(leaf, query.size);
    const doc =
      query.from === undefined
        ? inclusion
        : { ...inclusion, consistency: await log.consistency(query.from, inclusion.tree_size) };
    return c.json(doc, 200, {
      'content-disposition': `attachment; filename="${runId}.proof.json"`,
    });
  });

  return app;
}
