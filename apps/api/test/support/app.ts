// An in-process app over a test database, with a fixed service key and helpers for requests.
import { summarizeRecord } from '@runback/cli';
import { generateEd25519KeyPair, privateKeyToPem } from '@runback/sign';
import { createApp } from '../../src/app.js';
import { issueApiKey } from '../../src/auth/api-keys.js';
import type { AppDeps, Logger } from '../../src/deps.js';
import {
  serviceKeysFrom,
  type KeyMaterial,
  type ServiceKeys,
} from '../../src/keys/service-keys.js';
import { promMetrics } from '../../src/node/metrics.js';
import type { Store } from '../../src/store/types.js';

/** A logger that keeps its lines, for assertions and quiet test output. */
export function memoryLogger(lines: object[] = []): Logger {
  const make = (bindings: object): Logger => ({
    info: (fields, message) =>
      void lines.push({ level: 'info', ...bindings, ...fields, msg: message }),
    warn: (fields, message) =>
      void lines.push({ level: 'warn', ...bindings, ...fields, msg: message }),
    error: (fields, message) =>
      void lines.push({ level: 'error', ...bindings, ...fields, msg: message }),
    child: (more) => make({ ...bindings, ...more }),
  });
  return make({});
}

export function newSigningKeyPem(): string {
  return privateKeyToPem(generateEd25519KeyPair().privateKey);
}

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestApp {
  readonly app: ReturnType<typeof createApp>;
  readonly deps: AppDeps;
  readonly keys: ServiceKeys;
  readonly logs: object[];
  /** Issues an API key for `project` and returns its bearer token. */
  token(project: string): Promise<string>;
  /** A JSON request with the token (if any). */
  call(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
}

export function testApp(
  store: Store,
  material: KeyMaterial = { ed25519PrivateKeyPem: newSigningKeyPem() },
  extra: Partial<AppDeps> = {},
): TestApp {
  const keys = serviceKeysFrom(material);
  const logs: object[] = [];
  const deps: AppDeps = {
    store,
    keys,
    logger: memoryLogger(logs),
    metrics: promMetrics({ defaults: false }),
    summarize: summarizeRecord,
    adminToken: ADMIN_TOKEN,
    ...extra,
  };
  const app = createApp(deps);
  return {
    app,
    deps,
    keys,
    logs,
    async token(project) {
      return (await issueApiKey(store, project, undefined, new Date().toISOString())).token;
    },
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      return app.request(path, { method, headers, ...(body === undefined ? {} : { body }) });
    },
  };
}

/** A well-formed tool event (no seq: the service assigns one). */
export function toolEvent(i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema_version: 1,
    span_id: `t${i}`,
    parent_span_id: 'run',
    ts_start: '2026-06-14T02:47:11.000Z',
    ts_end: '2026-06-14T02:47:11.005Z',
    type: 'tool',
    tool_name: 'lookup',
    tool_call_id: `call_${i}`,
    input: { i },
    output: { ok: true, i },
    latency_ms: 5,
    error: null,
    ...extra,
  };
}
