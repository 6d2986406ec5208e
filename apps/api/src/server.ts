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
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err: String(err) }, 'shutdown failed');
        process.exit(1);
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
  process.exit(1);
}
