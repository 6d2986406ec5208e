// The verify command: `runback verify FILE... [--json] [--pubkey PEM]... [--revoked PEM]...
// [--key K | --key-file F]` and `runback-verify` (docs/spec.md §8).
// A thin adapter: it reads files and keys, calls @runback/verify, prints, and maps verdicts to
// exit codes. All verification logic lives in @runback/verify.
import {
  assertTrustPolicy,
  verifyJson,
  type VerifyOptions,
  type VerifyResult,
} from '@runback/verify';
import { fileProgress, type Progress } from './progress.js';
import { verifyFile } from './verify-file.js';
import { EXIT, UsageError, type CommandIO } from './io.js';
import { FlagError, parseFlags } from './parse-flags.js';
import { escapeTerminal } from './escape-terminal.js';
import { formatReport } from './report.js';
import { makeStyle, useColor } from './style.js';
import { loadTrust, refusePemKey, TRUST_FLAG_OPTIONS } from './trust-flags.js';
import { verifyCliVersion } from './version.js';
import { DEFAULT_MAX_INPUT_BYTES, InputError } from './read-bounded.js';

/** Usage text of the verify command; `program` is how it was invoked. */
export function verifyUsage(program: string): string {
  return `Usage: ${program} FILE... [options]

Verify runback records offline: schema, consistency, event chain, content digest,
cassette digest and signature. FILE may be "-" for standard input.

Options:
  --json               one JSON line per FILE, in order, each with "file"; an unreadable
                       FILE gets {"file", "error": {"code", "message"}}; usage errors
                       print {"error": {"code", "message"}}
  --pubkey PEM_FILE    pin an Ed25519 public key (repeat for rotated-out keys)
  --revoked PEM_FILE   treat signatures by this key as invalid (repeatable)
  --key HMAC_KEY       shared secret for HMAC-SHA256 records (the secret itself, as UTF-8;
                       a PEM key or PEM file here is refused: use --pubkey for those)
  --hmac-key-file FILE read the HMAC secret from FILE (one trailing newline is ignored)
  --key-file FILE      the same as --hmac-key-file
  --max-bytes N        refuse a FILE or standard input longer than N bytes (without it:
                       standard input stops at ${DEFAULT_MAX_INPUT_BYTES} bytes, 256 MiB;
                       a FILE of any size verifies, one over 64 MiB as a stream, one
                       event at a time)
  -h, --help           show this help
  -v, --version        print the version

FILE must be a regular file or "-": a device, FIFO or directory is refused
(INPUT_NOT_REGULAR_FILE), and reading stops as soon as the input passes the cap
(INPUT_TOO_LARGE); both exit 64.

Exit status: 0 valid, 1 invalid, 2 unverified (intact but signer not proven), 64 usage error.`;
}

/** Runs the verify command and returns its exit status. */
export async function runVerifyCommand(
  argv: readonly string[],
  io: CommandIO,
  program = 'runback verify',
): Promise<number> {
  const json = jsonWanted(argv);
  let parsed;
  try {
    parsed = parseFlags({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        ...TRUST_FLAG_OPTIONS,
        'hmac-key-file': { type: 'string' },
        'max-bytes': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'v', default: false },
      },
    });
  } catch (err) {
    if (err instanceof FlagError && err.flag === '--key' && err.next !== undefined) {
      // `--key "$(cat signer.pub.pem)"`: the PEM text starts with "-----BEGIN".
      try {
        await refusePemKey(err.next, io);
      } catch (pem) {
        if (pem instanceof UsageError) return usage(io, program, json, pem.message, pem.code);
      }
    }
    return usage(io, program, json, err instanceof FlagError ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(verifyUsage(program) + '\n');
    return EXIT.ok;
  }
  if (values.version) {
    io.stdout(verifyCliVersion() + '\n');
    return EXIT.ok;
  }
  if (positionals.length === 0)
    return usage(
      io,
      program,
      json,
      'expected at least one FILE (or "-" for standard input), got none',
    );
  const explicitMax = values['max-bytes'] === undefined ? undefined : Number(values['max-bytes']);
  const maxBytes = explicitMax ?? DEFAULT_MAX_INPUT_BYTES;
  if (
    !/^[0-9]+$/.test(values['max-bytes'] ?? '0') ||
    !Number.isSafeInteger(maxBytes) ||
    maxBytes < 1
  ) {
    return usage(
      io,
      program,
      json,
      `expected --max-bytes to be a whole number of bytes >= 1, got ${JSON.stringify(values['max-bytes'])}`,
    );
  }
  const keyFile = values['hmac-key-file'] ?? values['key-file'];
  if (values.key !== undefined && keyFile !== undefined) {
    return usage(io, program, json, 'expected one of --key or --hmac-key-file, got both');
  }
  const stdinUses = [
    ...positionals,
    ...(values.pubkey ?? []),
    ...(values.revoked ?? []),
    keyFile,
  ].filter((p) => p === '-').length;
  if (stdinUses > 1)
    return usage(
      io,
      program,
      json,
      'expected "-" (standard input) at most once among FILE, --pubkey, --revoked and --hmac-key-file',
    );

  let options: VerifyOptions;
  try {
    options = await loadTrust(values, io);
    // Validate the keys once, up front, so a bad --pubkey is a usage error, not a verdict.
    assertTrustPolicy(options);
  } catch (err) {
    const code = err instanceof UsageError ? err.code : 'USAGE_BAD_ARGUMENTS';
    return usage(io, program, json, (err as Error).message, code);
  }

  const style = makeStyle(useColor(io));
  let worst: number = EXIT.ok;
  for (const file of positionals) {
    let result: VerifyResult;
    const streamInput = io.streamInput;
    // Progress of a streamed file on a terminal's stderr, never with --json (progress.ts).
    let progress: Progress | undefined;
    const showProgress =
      io.stderrIsTTY === true && !values.json
        ? (read: number, total: number) => {
            progress ??= fileProgress(io.stderr, file, total);
            progress.update(read);
          }
        : undefined;
    try {
      // A file verifies at any size (streamed over 64 MiB, one event held at a time);
      // standard input is read whole under the cap.
      result =
        file !== '-' && streamInput !== undefined
          ? await verifyFile(
              file,
              options,
              { streamInput, readInput: io.readInput },
              { maxBytes: explicitMax, progress: showProgress },
            )
          : verifyJson(await io.readInput(file, { maxBytes }), options);
    } catch (err) {
      // The progress line is wiped before anything else is written (not in a finally, which
      // would run after the error below had been written onto that line).
      progress?.done();
      const code = err instanceof InputError ? err.code : 'USAGE_UNREADABLE_INPUT';
      const message = `cannot read ${file}: ${(err as Error).message}`;
      // With --json every FILE gets its line, in order, so results can be matched to files.
      if (values.json) io.stdout(JSON.stringify({ file, error: { code, message } }) + '\n');
      io.stderr(
        `${program}: ${escapeTerminal(`cannot read ${file} [${code}]: ${(err as Error).message}`)}\n`,
      );
      worst = EXIT.usage;
      continue;
    }
    progress?.done();
    io.stdout(
      values.json
        ? JSON.stringify({ file, ...result }) + '\n'
        : formatReport(file === '-' ? '(stdin)' : file, result, style) + '\n',
    );
    worst = worse(worst, exitCodeOf(result));
  }
  return worst;
}

/** The exit status for one verdict: 0 valid, 1 invalid, 2 unverified. */
export function exitCodeOf(result: VerifyResult): number {
  return result.verdict === 'valid'
    ? EXIT.ok
    : result.verdict === 'invalid'
      ? EXIT.invalid
      : EXIT.unverified;
}

/** Several files: a usage problem beats invalid, which beats unverified, which beats valid. */
function worse(a: number, b: number): number {
  const rank = (code: number): number =>
    code === EXIT.usage ? 3 : code === EXIT.invalid ? 2 : code === EXIT.unverified ? 1 : 0;
  return rank(b) > rank(a) ? b : a;
}

/**
 * A usage mistake: the message on stderr, and with --json also `{"error": {code, message}}` on
 * stdout (the same shape as every runback command's errors).
 */
function usage(
  io: CommandIO,
  program: string,
  json: boolean,
  message: string,
  code = 'USAGE_BAD_ARGUMENTS',
): number {
  if (json) {
    io.stdout(JSON.stringify({ error: { code, message, exit_code: EXIT.usage } }) + '\n');
  }
  io.stderr(`${program}: ${escapeTerminal(message)}\nRun "${program} --help" for usage.\n`);
  return EXIT.usage;
}

/** --json before a "--" terminator, looked for before parsing so even a bad flag gets JSON. */
function jsonWanted(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
