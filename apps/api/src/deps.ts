// What the web-standard app core is given. Everything Node-specific (the database drivers,
// pino, prom-client, files) is created by the Node entry (node/) and passed in here, so the
// core imports no Node-only module.
import type { MiddlewareHandler } from 'hono';
import type { VerifyResult } from '@runback/verify';
import type { ServiceKeys } from './keys/service-keys.js';
import type { Store } from './store/types.js';

/** Structured logging (pino's call shape: fields first, then the message). */
export interface Logger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  child(bindings: object): Logger;
}

/** The service's counters and histograms, rendered in Prometheus text format. */
export interface Metrics {
  requestDone(route: string, method: string, status: number, seconds: number): void;
  eventsIngested(count: number): void;
  verifyVerdict(verdict: VerifyResult['verdict']): void;
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
}

/** `runback inspect --json`'s summary of a record (@runback/cli's summarizeRecord). */
export type Summarizer = (record: unknown, verification: VerifyResult) => object;

export interface AppDeps {
  readonly store: Store;
  readonly keys: ServiceKeys;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly summarize: Summarizer;
  /** Bearer token of the admin endpoints; without one they answer 401. */
  readonly adminToken?: string | undefined;
  /**
   * The transparency log's origin, the name its checkpoints carry (RUNBACK_LOG_ORIGIN);
   * log/transparency-log.ts has the default.
   */
  readonly logOrigin?: string | undefined;
  /** The clock (tests pass a fixed one). */
  readonly now?: (() => Date) | undefined;
  /** Answers requests no API route matched (the web app's static files). */
  readonly fallback?: MiddlewareHandler | undefined;
}

/** Variables the middleware sets on each request's context. */
export interface AppVariables {
  requestId: string;
  log: Logger;
  projectId: string;
  apiKeyId: string;
}

export interface AppEnv {
  Variables: AppVariables;
}
