// JSON logs with pino: one line per event, the request id on every request's lines.
import { pino, type DestinationStream } from 'pino';
import type { Logger } from '../deps.js';

export function jsonLogger(
  options: { level?: string; destination?: DestinationStream } = {},
): Logger {
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
