// @runback/api: the runback audit service. The app core (createApp) is web-standard; the
// Node entry (node/server.ts) wires the database, keys, logs and metrics.
export { createApp, ROUTE_GROUPS, type RouteGroup } from './app.js';
export type { AppDeps, AppEnv, Logger, Metrics, Summarizer } from './deps.js';
export { ApiError, type ApiErrorBody, type ApiErrorCode } from './errors.js';
export {
  serviceKeysFrom,
  type KeyMaterial,
  type PublishedKey,
  type ServiceKeys,
} from './keys/service-keys.js';
export type { Store } from './store/types.js';
