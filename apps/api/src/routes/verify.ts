// POST /api/audit/verify: the HTTP call site of the one verify function. The answer is the
// verify result object, serialized exactly as `runback verify --json` prints it: JSON.stringify
// of @runback/verify's result, one line. Public: no auth, CORS open.
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { verifyJson } from '@runback/verify';
import { MAX_RECORD_BYTES, readBodyLimited } from '../body.js';
import type { AppDeps, AppEnv } from '../deps.js';

export function verifyRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(
    '/api/audit/verify',
    cors({ origin: '*', allowMethods: ['POST', 'OPTIONS'], maxAge: 86400 }),
  );
  app.post('/api/audit/verify', async (c) => {
    const bytes = await readBodyLimited(c.req.raw, MAX_RECORD_BYTES);
    const result = verifyJson(bytes, deps.keys.trust);
    deps.metrics.verifyVerdict(result.verdict);
    return c.body(JSON.stringify(result) + '\n', 200, {
      'content-type': 'application/json; charset=utf-8',
    });
  });
  return app;
}
