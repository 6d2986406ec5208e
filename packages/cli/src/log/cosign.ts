// `runback log cosign DIR --key WITNESS_KEY --name NAME --log-key LOG_PUB [--from OLD]
// [--time SECONDS]`: act as a witness (C2SP tlog-cosignature). The witness checks the log's
// signature on DIR/checkpoint and, given the last checkpoint it cosigned (--from), that the
// log only grew since; only then does it add its cosignature line to DIR/checkpoint.
import {
  cosignCheckpoint,
  proveConsistency,
  readCheckpoint,
  verifyConsistency,
} from '@runback/tlog';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { onePositional } from './init.js';
import type { CommandIO } from './io.js';
import { readPrivateKey, readPublicKey } from './keys.js';
import { printResult, safe } from './output.js';
import { openStore, withLock, writeCheckpoint } from './store.js';

export async function logCosign(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      key: { type: 'string' },
      name: { type: 'string' },
      'log-key': { type: 'string' },
      from: { type: 'string' },
      time: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const dir = onePositional(positionals, 'DIR');
  const { key, name } = values;
  if (key === undefined || name === undefined || values['log-key'] === undefined) {
    throw usageError(
      'USAGE_MISSING_KEY',
      'expected --key WITNESS_KEY_PEM, --name WITNESS_NAME and --log-key LOG_PUBLIC_KEY',
    );
  }
  if (name === '' || /[\s+]/u.test(name))
    throw usageError(
      'USAGE_BAD_NAME',
      `expected --name without spaces or "+", got ${JSON.stringify(name)}`,
    );
  const time = values.time === undefined ? Math.floor(Date.now() / 1000) : Number(values.time);
  if (
    !Number.isSafeInteger(time) ||
    time < 0 ||
    (values.time !== undefined && !/^(?:0|[1-9]\d*)$/.test(values.time))
  ) {
    throw usageError(
      'USAGE_BAD_TIME',
      `expected --time as POSIX seconds, got ${JSON.stringify(values.time)}`,
    );
  }
  const witnessKey = await readPrivateKey('--key', key, io);
  const logKey = await readPublicKey('--log-key', values['log-key'], io);
  const old = values.from === undefined ? undefined : await readNote('--from', values.from, io);

  return withLock(dir, async () => {
    const store = await openStore(dir);
    if (store.checkpoint === null)
      throw new CliError('LOG_NO_CHECKPOINT', `${dir} has no checkpoint yet`, {
        hint: 'Run runback log checkpoint first.',
      });
    const current = readCheckpoint(store.checkpoint, { logKey });
    if (!current.ok)
      throw new CliError(
        'LOG_WITNESS_REFUSED',
        `refusing to cosign ${dir}/checkpoint: ${current.message}`,
        { details: { cause: current.code } },
      );
    if (old !== undefined) {
      const previous = readCheckpoint(old, { logKey });
      if (!previous.ok)
        throw new CliError(
          'LOG_WITNESS_REFUSED',
          `refusing to cosign: --from ${values.from}: ${previous.message}`,
          { details: { cause: previous.code } },
        );
      const a = previous.checkpoint;
      const b = current.checkpoint;
      const ok =
        a.origin === b.origin &&
        a.size <= b.size &&
        b.size <= store.heads.length &&
        verifyConsistency({
          size1: a.size,
          size2: b.size,
          root1: a.root,
          root2: b.root,
          proof: a.size === 0 ? [] : proveConsistency(store.heads, a.size, b.size),
        }).ok;
      if (!ok) {
        throw new CliError(
          'LOG_NOT_APPEND_ONLY',
          `refusing to cosign: the checkpoint of size ${b.size} does not extend --from (size ${a.size})`,
        );
      }
    }
    const note = cosignCheckpoint(store.checkpoint, name, time, witnessKey);
    await writeCheckpoint(dir, note);
    printResult(
      io,
      values.json,
      { dir, witness: name, timestamp: time, size: current.checkpoint.size, checkpoint: note },
      [`Cosigned checkpoint of size ${current.checkpoint.size} as ${safe(name)} at ${time}`],
    );
    return EXIT.ok;
  });
}

export async function readNote(flag: string, path: string, io: CommandIO): Promise<string> {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await io.readInput(path));
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${flag} ${path}: ${messageOf(err)}`);
  }
}
