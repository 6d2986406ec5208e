// One TransparencyLog per app (its leaf cache is shared by the routes that append and read),
// or null when the service has no Ed25519 key to sign checkpoints with.
import type { AppDeps } from '../deps.js';
import { DEFAULT_LOG_ORIGIN, TransparencyLog } from './transparency-log.js';

const logs = new WeakMap<AppDeps, TransparencyLog | null>();

/** The app's log (created on first use), or null when it keeps none. */
export function transparencyLogOf(deps: AppDeps): TransparencyLog | null {
  let log = logs.get(deps);
  if (log === undefined) {
    const key = deps.keys.logSigningKey;
    log =
      key === null
        ? null
        : new TransparencyLog(
            deps.store,
            key,
            deps.logOrigin ?? DEFAULT_LOG_ORIGIN,
            deps.now ?? (() => new Date()),
          );
    logs.set(deps, log);
  }
  return log;
}
