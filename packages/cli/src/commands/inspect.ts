// `runback inspect`: whether a record holds up, then what it says, readable in ten seconds —
// the run's input and outcome, its tool calls with their inputs, model calls and tokens,
// errors. The verdict is verifyJson's, under the same trust flags as runback verify.
import { assertTrustPolicy, readJsonStrict, verifyJson, type VerifyOptions } from '@runback/verify';
import { loadTrust, makeStyle, UsageError, useColor, type CommandIO } from '@runback/verify-cli';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { formatSummary } from '../inspect/format.js';
import { summarizeRecord } from '../inspect/summarize.js';
import { recordBytesOf } from '../inspect/bundle.js';

const usage = `Usage: runback inspect FILE [--pubkey PEM_FILE]... [--key HMAC_KEY | --hmac-key-file F]
                       [--revoked PEM_FILE]... [--json]

Show whether a runback record holds up, then what a reviewer needs from it. First the
verdict (VALID, UNVERIFIED or INVALID — a record that does not verify says so before any of
its content); then the run: name, id, status, timing, its input and final output or error,
the model's last answer; for a program recorded by runback record, the program (named after
its script: agent.js, not node), its exit status and output; every tool call with its input
and result (in a zero-code record, read from the tool calls the model's responses asked for);
LLM calls and tokens per model; env reads; events that carry an error; the checks.
FILE may be "-" for standard input. A bundle from runback bundle (FILE.tar.gz) is inspected
through its record.json.

Options:
  --pubkey PEM_FILE    pin an Ed25519 public key (repeatable): a record it signed is VALID
  --revoked PEM_FILE   treat signatures by this key as invalid (repeatable)
  --key HMAC_KEY       the HMAC-SHA256 secret itself (as for runback verify; a PEM key or
                       PEM file here is refused: use --pubkey)
  --hmac-key-file F    read the HMAC secret from F (one trailing newline is ignored)
  --json               print the summary as one JSON object on standard output, the verdict
                       first; usage errors print {"error": {"code", "message", "exit_code"}}
  -h, --help           show this help

Without keys an intact signed record is UNVERIFIED: intact, but nothing here proves who
signed it. The summary goes to standard output, errors to standard error.

Exit status: 0 the record verifies (VALID, or UNVERIFIED when no key was given), 1 INVALID
(changed or damaged), or the file is not JSON or not a JSON object, 2 UNVERIFIED although a
key was given (not signed by any of them), 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        pubkey: { type: 'string', multiple: true },
        revoked: { type: 'string', multiple: true },
        key: { type: 'string' },
        'hmac-key-file': { type: 'string' },
      },
    },
    { hmacKey: true },
  );
  if (positionals.length !== 1) {
    throw usageError(
      'USAGE_INPUT',
      positionals.length === 0
        ? 'expected a FILE to inspect (or "-" for standard input), got none'
        : `expected one FILE, got ${positionals.length}`,
    );
  }
  const path = positionals[0] as string;
  const name = path === '-' ? '(stdin)' : path;
  if (values.key !== undefined && values['hmac-key-file'] !== undefined) {
    throw usageError(
      'USAGE_CONFLICTING_FLAGS',
      'expected one of --key or --hmac-key-file, got both',
    );
  }
  const trust = await trustOf(values, io);
  const keys =
    (values.pubkey ?? []).length > 0 ||
    values.key !== undefined ||
    values['hmac-key-file'] !== undefined;
  let input: Uint8Array;
  try {
    input = await io.readInput(path);
  } catch (err) {
    throw usageError('USAGE_UNREADABLE_INPUT', `cannot read ${name}: ${messageOf(err)}`);
  }
  // A bundle (runback bundle) is inspected through the record inside it.
  const { bytes, bundle } = await recordBytesOf(input, name);
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) {
    throw new CliError('INSPECT_NOT_JSON', `cannot read ${name} as JSON: ${parsed.error.message}`, {
      hint: 'A runback record is one JSON object (strict UTF-8, no duplicate member names).',
      details: { parse_error: parsed.error },
    });
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw new CliError(
      'INSPECT_NOT_RECORD',
      `${name} is not a runback record: expected a JSON object, got ${Array.isArray(parsed.value) ? 'an array' : parsed.value === null ? 'null' : `a ${typeof parsed.value}`}`,
    );
  }
  const summary = summarizeRecord(parsed.value, verifyJson(bytes, trust));
  const verdict = summary.chain.verdict;
  io.stdout(
    values.json
      ? JSON.stringify({
          verdict,
          file: name,
          ...summary,
          ...(bundle === null ? {} : { bundle }),
        }) + '\n'
      : formatSummary(name, summary, makeStyle(useColor(io)), { keys, bundle }),
  );
  if (verdict === 'invalid') return EXIT.invalid;
  if (verdict === 'unverified' && keys) return EXIT.unverified;
  return EXIT.ok;
}

/** The trust flags, read as runback verify reads them; a bad key is a usage error. */
async function trustOf(
  values: {
    pubkey?: string[] | undefined;
    revoked?: string[] | undefined;
    key?: string | undefined;
    'hmac-key-file'?: string | undefined;
  },
  io: CommandIO,
): Promise<VerifyOptions> {
  try {
    const options = await loadTrust(values, io);
    assertTrustPolicy(options);
    return options;
  } catch (err) {
    if (err instanceof UsageError) throw usageError(err.code, err.message);
    throw usageError('USAGE_BAD_ARGUMENTS', messageOf(err));
  }
}

export const command: Command = { usage, run };
