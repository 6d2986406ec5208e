// API key administration, guarded by RUNBACK_ADMIN_TOKEN: issue (the token is shown once),
// list, revoke.
import { Hono } from 'hono';
import { apiKeyInfo, bearerToken, isAdminToken, issueApiKey } from '../auth/api-keys.js';
import { readJsonBody } from '../body.js';
import type { AppDeps, AppEnv } from '../deps.js';
import { ApiError } from '../errors.js';
import { ApiKeyCreateSchema } from '../schemas.js';
import { parseOr400 } from '../validate.js';

export function adminRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = deps.now ?? (() => new Date());
  app.use('/api/admin/*', async (c, next) => {
    const adminToken = deps.adminToken;
    if (adminToken === undefined || adminToken === '') {
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        'expected RUNBACK_ADMIN_TOKEN to be configured for admin endpoints, got none',
      );
    }
    if (!isAdminToken(bearerToken(c.req.header('authorization')), adminToken)) {
      throw new ApiError(401, 'UNAUTHORIZED', 'expected the admin token, got another token');
    }
    await next();
  });
  app.post('/api/admin/api-keys', async (c) => {
    const body = parseOr400(ApiKeyCreateSchema, await readJsonBody(c.req.raw));
    const issued = await issueApiKey(deps.store, body.project, body.label, now().toISOString());
    c.get('log').info({ api_key_id: issued.id, project: issued.project }, 'api key issued');
    return c.json(issued, 201);
  });
  app.get('/api/admin/api-keys', async (c) => {
    const project = c.req.query('project');
    const keys = await deps.store.listApiKeys(
      project === undefined || project === '' ? undefined : project,
    );
    return c.json({ api_keys: keys.map(apiKeyInfo) });
  });
  app.delete('/api/admin/api-keys/:id', async (c) => {
    const id = c.req.param('id');
    if (!(await deps.store.revokeApiKey(id, now().toISOString()))) {
      throw new ApiError(
        404,
        'NOT_FOUND',
        `expected an unrevoked API key ${JSON.stringify(id)}, got none`,
      );
    }
    c.get('log').info({ api_key_id: id }, 'api key revoked');
    return c.json({ id, revoked: true });
  });
  return app;
}
