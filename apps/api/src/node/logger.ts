// JSON logs with pino: one line per event, the request id on every request's lines.
import { pino, type DestinationStream } from 'pino';
import type { Logger } from '../deps.js';

/** A logger whose buffered lines can be written out before the process exits. */
export interface FlushableLogger extends Logger {
  /** Calls `done` once every line logged so far has been written (or writing failed). */
  flush(done: (err?: Error) => void): void;
}

/**
 * pino's default destination writes asynchronously, and its exit hook writes only what is still
 * buffered: a write in flight when the process exits is lost, and with it the lines logged just
 * before exiting ("shutting down", "runback api stopped"), as in a CI run where the machine was
 * busy. Callers that exit call `flush` first.
 */
export function jsonLogger(
  options: { level?: string; destination?: DestinationStream } = {},
): FlushableLogger {
  const base = pino(
    {
      level: options.level ?? process.env['LOG_LEVEL'] ?? 'info',
      base: { service: 'runback-api' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', '*.token'], censor: '[redacted]' },
    },
    options.destination,
  );
  return base;
}
