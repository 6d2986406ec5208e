// `runback log init DIR --origin NAME`: create an empty log.
import { verifierKeyText } from '@runback/tlog';
import { parseCommandArgs } from '../command.js';
import { EXIT, usageError } from '../errors.js';
import type { CommandIO } from './io.js';
import { printResult, safe } from './output.js';
import { initStore } from './store.js';

export async function logInit(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { origin: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const dir = onePositional(positionals, 'DIR');
  const origin = values.origin;
  if (origin === undefined || origin === '' || /[\s+]/u.test(origin)) {
    throw usageError(
      'USAGE_BAD_ORIGIN',
      `expected --origin NAME without spaces or "+", got ${origin === undefined ? 'none' : JSON.stringify(origin)}`,
      'The origin names the log in every checkpoint, e.g. --origin example.com/runback-log.',
    );
  }
  // A well-formed origin is a valid note key name: checked once here so checkpoint cannot fail later.
  verifierKeyText(origin, new Uint8Array(32));
  await initStore(dir, origin);
  printResult(io, values.json, { dir, origin, size: 0 }, [
    `Created an empty log ${safe(origin)} in ${safe(dir)}`,
  ]);
  return EXIT.ok;
}

export function onePositional(positionals: readonly string[], name: string): string {
  if (positionals.length !== 1) {
    throw usageError(
      'USAGE_INPUT',
      positionals.length === 0
        ? `expected ${name}, got none`
        : `expected one ${name}, got ${positionals.length} arguments`,
    );
  }
  return positionals[0] as string;
}
