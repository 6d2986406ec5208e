// The service's published keys: the current Ed25519 public key as PEM, and every key it
// pins or refuses, with key ids (docs/spec.md §5.6), so anyone can verify its exports.
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps.js';
import { ApiError } from '../errors.js';

export function wellKnownRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/.well-known/runback-audit-key.pem', (c) => {
    const current = deps.keys.current;
    if (current === null) {
      throw new ApiError(
        404,
        'NOT_FOUND',
        'expected an Ed25519 signing key to publish, got none (the service signs with HMAC or not at all)',
      );
    }
    return c.body(current.pem, 200, {
      'content-type': 'application/x-pem-file',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=300',
    });
  });
  app.get('/.well-known/runback-audit-keys.json', (c) => {
    c.header('access-control-allow-origin', '*');
    c.header('cache-control', 'public, max-age=300');
    return c.json({
      current: deps.keys.current,
      previous: deps.keys.previous,
      pinned: deps.keys.pinned,
      revoked: deps.keys.revoked,
    });
  });
  return app;
}
