// The shape of a command module. run-cli loads each one with import() only when it runs.
import { FlagError, parseFlags, pemKeyTextRefusal, type CommandIO } from '@runback/verify-cli';
import type { parseArgs } from 'node:util';
import { messageOf, usageError } from './errors.js';

/** One `runback <name>` command. */
export interface Command {
  /** The full --help text. */
  readonly usage: string;
  /** Runs the command with the arguments after its name; resolves to the exit status. */
  readonly run: (argv: readonly string[], io: CommandIO) => Promise<number>;
  /**
   * Where its --json output goes, errors included: standard output (default), or standard
   * error for a command whose standard output belongs to the program it runs.
   */
  readonly jsonStream?: 'stdout' | 'stderr';
}

type ParseArgsConfig = NonNullable<Parameters<typeof parseArgs>[0]>;

/**
 * util.parseArgs in strict mode; a bad flag becomes a usage error (exit 64) naming the flag.
 * `hmacKey`: the command's --key is an HMAC secret (as for `runback verify`), so PEM key text
 * given to it gets verify's refusal, USAGE_KEY_IS_PEM pointing to --pubkey, rather than the
 * general message about a value starting with "-" (sign, replay and log commands take a
 * signing key as --key and leave this off).
 */
export function parseCommandArgs<const T extends ParseArgsConfig>(
  config: T,
  { hmacKey = false }: { readonly hmacKey?: boolean } = {},
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseFlags(config);
  } catch (err) {
    if (err instanceof FlagError) {
      // `--key "$(cat signer.pub.pem)"`: the PEM text starts with "-", so it reads as a flag.
      const pem =
        hmacKey && err.flag === '--key' && err.next !== undefined
          ? pemKeyTextRefusal(err.next)
          : undefined;
      if (pem !== undefined) throw usageError('USAGE_KEY_IS_PEM', pem.message);
      throw usageError('USAGE_BAD_ARGUMENTS', err.message);
    }
    throw usageError('USAGE_BAD_ARGUMENTS', messageOf(err));
  }
}

/**
 * Splits `runback <command> [flags] -- PROGRAM [ARGS...]` at the first "--": the flags, and the
 * program to run with its own arguments (never parsed as runback flags).
 */
export function splitAtDoubleDash(argv: readonly string[]): {
  readonly flags: readonly string[];
  readonly program: readonly string[];
} {
  const split = argv.indexOf('--');
  return split === -1
    ? { flags: argv, program: [] }
    : { flags: argv.slice(0, split), program: argv.slice(split + 1) };
}
