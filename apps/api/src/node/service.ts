// Assembling the service on Node: configuration from the environment, the store, keys, logs,
// metrics and the web app's static files, then the HTTP server with graceful shutdown.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { summarizeRecord } from '@runback/cli';
import { createApp } from '../app.js';
import { transparencyLogOf } from '../log/for-app.js';
import type { AppDeps, Logger } from '../deps.js';
import { openStore, storeLocationFrom } from '../store/open.js';
import type { Store } from '../store/types.js';
import { loadServiceKeys } from './load-keys.js';
import { jsonLogger } from './logger.js';
import { promMetrics } from './metrics.js';

type Env = Readonly<Record<string, string | undefined>>;

const here = dirname(fileURLToPath(import.meta.url));

/** The web app's build, served at `/` when it exists (RUNBACK_WEB_DIR overrides). */
export function webDistDir(env: Env): string {
  return env['RUNBACK_WEB_DIR'] ?? resolve(here, '..', '..', 'web', 'dist');
}

export interface RunningService {
  readonly url: string;
  readonly store: Store;
  readonly deps: AppDeps;
  /** Stops accepting connections, lets in-flight requests finish, closes the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  readonly env?: Env;
  readonly logger?: Logger;
  readonly host?: string;
  readonly port?: number;
}

/** Starts the service and resolves once it listens. */
export async function startService(options: StartOptions = {}): Promise<RunningService> {
  const env = options.env ?? process.env;
  const log = options.logger ?? jsonLogger();
  const dataDir = resolve(env['RUNBACK_DATA_DIR'] ?? './data');
  const location = storeLocationFrom(env, dataDir);
  const store = openStore(location);
  await store.migrate();
  const keys = loadServiceKeys(env, dataDir, log);
  const web = webDistDir(env);
  const hasWeb = existsSync(resolve(web, 'index.html'));
  const deps: AppDeps = {
    store,
    keys,
    logger: log,
    metrics: promMetrics(),
    summarize: summarizeRecord,
    adminToken: env['RUNBACK_ADMIN_TOKEN'],
    logOrigin: env['RUNBACK_LOG_ORIGIN'] === '' ? undefined : env['RUNBACK_LOG_ORIGIN'],
    fallback: hasWeb ? serveStatic({ root: web }) : undefined,
  };
  const app = createApp(deps);
  // A bad RUNBACK_LOG_ORIGIN stops the service here, not at the first export.
  transparencyLogOf(deps);
  const host = options.host ?? env['HOST'] ?? '127.0.0.1';
  const port = options.port ?? Number(env['PORT'] ?? 8787);
  const server = await new Promise<ServerType>((resolveServer) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolveServer(s));
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  log.info(
    {
      url,
      database: store.dialect,
      signer: keys.signer?.alg ?? 'none',
      key_id: keys.current?.key_id ?? null,
      web: hasWeb ? web : null,
    },
    `runback api listening on ${url}`,
  );
  let closing: Promise<void> | undefined;
  return {
    url,
    store,
    deps,
    close() {
      closing ??= (async () => {
        await new Promise<void>((done) => {
          // Idle keep-alive connections would hold close() open until they time out; they are
          // closed as soon as they fall idle, while in-flight requests run to the end.
          const idle = server as unknown as { closeIdleConnections?: () => void };
          const sweep = setInterval(() => idle.closeIdleConnections?.(), 50);
          server.close(() => {
            clearInterval(sweep);
            done();
          });
          idle.closeIdleConnections?.();
        });
        await store.close();
        log.info({}, 'runback api stopped');
      })();
      return closing;
    },
  };
}
