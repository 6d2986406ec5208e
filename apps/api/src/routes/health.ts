// Liveness, readiness and metrics.
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps.js';
import { ApiError } from '../errors.js';

export function healthRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    if (!(await deps.store.isReady())) {
      throw new ApiError(
        503,
        'NOT_READY',
        'expected the database to answer with every migration applied, got no answer or missing migrations',
      );
    }
    return c.json({ status: 'ready', database: deps.store.dialect });
  });
  app.get('/metrics', async (c) => {
    const { contentType, body } = await deps.metrics.render();
    return c.body(body, 200, { 'content-type': contentType });
  });
  return app;
}
