// The app core: a web-standard fetch(Request): Response handler (Hono). It imports no
// Node-only module; node/server.ts runs it on Node with @hono/node-server.
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from './deps.js';
import { ApiError } from './errors.js';
import { openApiDocument } from './openapi.js';
import { adminRoutes } from './routes/admin.js';
import { healthRoutes } from './routes/health.js';
import { logRoutes } from './routes/log.js';
import { runRoutes } from './routes/runs.js';
import { verifyRoutes } from './routes/verify.js';
import { wellKnownRoutes } from './routes/well-known.js';
import { randomId } from './ids.js';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** A route group: one file per group under routes/, each a Hono sub-app mounted at '/'. */
export type RouteGroup = (deps: AppDeps) => Hono<AppEnv>;

/** The route groups of the service, in mounting order. */
export const ROUTE_GROUPS: readonly RouteGroup[] = [
  healthRoutes,
  wellKnownRoutes,
  verifyRoutes,
  runRoutes,
  logRoutes,
  adminRoutes,
];

/** Builds the app. `extraGroups` lets other parts of the service add their own routes. */
export function createApp(deps: AppDeps, extraGroups: readonly RouteGroup[] = []): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given !== undefined && REQUEST_ID.test(given) ? given : randomId('req_');
    const log = deps.logger.child({ req_id: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    const started = performance.now();
    await next();
    c.header('x-request-id', requestId);
    const seconds = (performance.now() - started) / 1000;
    const route =
      c.req.routePath === '/*' || c.req.routePath === '*' ? 'unmatched' : c.req.routePath;
    deps.metrics.requestDone(route, c.req.method, c.res.status, seconds);
    log.info(
      {
        method: c.req.method,
        path: new URL(c.req.url).pathname,
        status: c.res.status,
        ms: Math.round(seconds * 1e4) / 10,
      },
      'request',
    );
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.toBody(), err.status);
    c.get('log').error(
      { err: { name: err.name, message: err.message, stack: err.stack } },
      'unhandled error',
    );
    return c.json(
      new ApiError(
        500,
        'INTERNAL',
        'expected the request to be handled, got an internal error (see the service log)',
      ).toBody(),
      500,
    );
  });

  app.get('/api/openapi.json', (c) => c.json(openApiDocument()));
  for (const group of [...ROUTE_GROUPS, ...extraGroups]) app.route('/', group(deps));
  if (deps.fallback !== undefined) app.use('*', deps.fallback);

  app.notFound((c) =>
    c.json(
      new ApiError(
        404,
        'NOT_FOUND',
        `expected a known endpoint, got ${c.req.method} ${new URL(c.req.url).pathname}`,
      ).toBody(),
      404,
    ),
  );
  return app;
}
