// `node dist/server.js`: the runback audit service on Node. SIGTERM and SIGINT stop it
// gracefully: no new connections, in-flight requests finish, the database closes.
import { jsonLogger } from './node/logger.js';
import { startService } from './node/service.js';

const log = jsonLogger();
try {
  const service = await startService({ logger: log });
  process.stdout.write(`runback api: ${service.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    // A second signal during shutdown changes nothing: in-flight requests still finish.
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    service.close().then(
      () => exitAfterLog(0),
      (err: unknown) => {
        log.error({ err: String(err) }, 'shutdown failed');
        exitAfterLog(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (err) {
  log.error(
    { err: err instanceof Error ? err.message : String(err) },
    'runback api could not start',
  );
  exitAfterLog(1);
}

/**
 * Exits with `code` once the log's last lines are written (see jsonLogger), or after 2 s: a
 * stdout nobody reads any more must not keep the process from exiting.
 */
function exitAfterLog(code: number): void {
  process.exitCode = code;
  const cap = setTimeout(() => process.exit(code), 2000);
  log.flush(() => {
    clearTimeout(cap);
    process.exit(code);
  });
}
