// runback's dispatcher: picks the command, loads only its module (dynamic import, one chunk
// per command in the build), runs it, and maps whatever it throws to an exit status in one
// place: CliError → its own status, UsageError → 64, anything else → 70 (a bug).
import { editDistance, escapeTerminal, type CommandIO } from '@runback/verify-cli';
import type { Command } from './command.js';
import { CliError, EXIT, messageOf } from './errors.js';
import { errorJson } from './json-error.js';
import { cliVersion } from './version.js';

interface CommandEntry {
  readonly summary: string;
  readonly load: () => Promise<{ command: Command }>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  verify: {
    summary: 'check a record offline: schema, consistency, chain, digests, signature',
    load: () => import('./commands/verify.js'),
  },
  sign: {
    summary: 'seal and sign a record, then verify it before writing',
    load: () => import('./commands/sign.js'),
  },
  record: {
    summary: 'run a program as a recorded run and write its sealed, signed record',
    load: () => import('./commands/record.js'),
  },
  replay: {
    summary: 'run a program against its record and prove the output reproduces',
    load: () => import('./commands/replay.js'),
  },
  recover: {
    summary: 'rebuild the record of an interrupted run from its journal',
    load: () => import('./commands/recover.js'),
  },
  diff: {
    summary: 'compare two runs semantically: changed, added and removed steps',
    load: () => import('./commands/diff.js'),
  },
  inspect: {
    summary: 'summarize a record: run, models, tokens, tools, errors, chain status',
    load: () => import('./commands/inspect.js'),
  },
  keygen: {
    summary: 'generate an Ed25519 key pair (PEM files) for signing',
    load: () => import('./commands/keygen.js'),
  },
  anchor: {
    summary: 'write anchors (heads.jsonl) and a release manifest for records and bundles',
    load: () => import('./commands/anchor.js'),
  },
  bundle: {
    summary: 'write a reproducible evidence bundle (record, artifacts, reports, SHA256SUMS, proof)',
    load: () => import('./commands/bundle.js'),
  },
  report: {
    summary: 'write a run report (Markdown or HTML), optionally against the EU AI Act',
    load: () => import('./commands/report.js'),
  },
  log: {
    summary: 'a transparency log of record heads: init, append, checkpoint, cosign, prove, verify',
    load: () => import('./commands/log.js'),
  },
  export: {
    summary: 'write a record as OpenTelemetry traces (OTLP/JSON, GenAI semantic conventions)',
    load: () => import('./commands/export.js'),
  },
  import: {
    summary: 'turn OpenTelemetry GenAI traces (OTLP/JSON) into a sealed, signed record',
    load: () => import('./commands/import.js'),
  },
};

/** The top-level --help text. */
export function mainUsage(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return `runback — verify, sign and inspect records of AI agent runs

Usage: runback <command> [options]

Commands:
${names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n]?.summary ?? ''}`).join('\n')}

Output: reports go to standard output, messages and errors to standard error. Every command
takes --json for one JSON value per result on standard output (snake_case members); with
--json an error is {"error": {"code", "message", "exit_code"}} on the same stream. record and
replay pass the program's own output through, so their report (and --json) goes to standard
error, and --report FILE also writes that JSON to FILE.
Run "runback help <command>" or "runback <command> --help" for its options.

Options:
  -h, --help     show this help
  -v, --version  print the version

Example:
  runback keygen --out keys
  runback sign run.json --key keys/runback.key.pem --out record.json
  runback verify record.json --pubkey keys/runback.pub.pem
  runback inspect record.json
  runback record --out run.json --key keys/runback.key.pem -- node agent.js
  runback recover run.json.journal --key keys/runback.key.pem

Exit status:
  0   success (verify: valid)
  1   invalid: the record does not verify or does not parse; the command refused
      (sign: output would not verify; keygen: key file exists) or could not write
  2   unverified (verify): intact, but the signer is not a pinned key
  64  usage error: unknown command or flag, missing or unreadable file or key
  70  internal error: a bug in runback — please report it
  runback record exits with the recorded command's own status once the record is written.`;
}

/**
 * Runs runback with the arguments after the program name and resolves to the exit status.
 * Does not reject: every failure is printed to `io.stderr` and becomes a status (only an
 * `io` whose stderr itself throws can make it reject).
 */
export async function runCli(argv: readonly string[], io: CommandIO): Promise<number> {
  const [first, ...rest] = argv;
  let commandName: string | undefined;
  let jsonStream: 'stdout' | 'stderr' = 'stdout';
  try {
    if (first === undefined) {
      io.stderr(mainUsage() + '\n');
      return EXIT.usage;
    }
    if (first === '--help' || first === '-h') {
      io.stdout(mainUsage() + '\n');
      return EXIT.ok;
    }
    if (first === '--version' || first === '-v') {
      io.stdout(cliVersion() + '\n');
      return EXIT.ok;
    }
    if (first === 'help') return await help(rest, io);
    if (first.startsWith('-')) {
      return usage(
        io,
        'runback',
        `unknown option ${first}; expected a command first`,
        undefined,
        jsonWanted(argv) ? 'USAGE_UNKNOWN_OPTION' : undefined,
      );
    }
    const entry = lookup(first);
    if (entry === undefined) return unknownCommand(io, first, jsonWanted(rest));
    commandName = first;
    const { command } = await entry.load();
    jsonStream = command.jsonStream ?? 'stdout';
    if (wantsHelp(rest)) {
      io.stdout(command.usage + '\n');
      return EXIT.ok;
    }
    return await command.run(rest, io);
  } catch (err) {
    return report(
      err,
      io,
      commandName === undefined ? 'runback' : `runback ${commandName}`,
      jsonWanted(rest) ? jsonStream : undefined,
    );
  }
}

async function help(args: readonly string[], io: CommandIO): Promise<number> {
  const [name, ...extra] = args;
  if (name === undefined) {
    io.stdout(mainUsage() + '\n');
    return EXIT.ok;
  }
  if (extra.length > 0)
    return usage(io, 'runback help', `expected one command name, got ${args.length}`, undefined);
  const entry = lookup(name);
  if (entry === undefined) return unknownCommand(io, name);
  const { command } = await entry.load();
  io.stdout(command.usage + '\n');
  return EXIT.ok;
}

function lookup(name: string): CommandEntry | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

/** --help / -h anywhere before a "--" terminator. */
function wantsHelp(args: readonly string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

/** --json before a "--" terminator: errors are then also printed as JSON on stdout. */
function jsonWanted(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

function unknownCommand(io: CommandIO, name: string, json = false): number {
  const guess = closest(name, Object.keys(COMMANDS));
  return usage(
    io,
    'runback',
    `unknown command ${JSON.stringify(name)}${guess === undefined ? '' : `; did you mean "${guess}"?`}`,
    `Commands: ${Object.keys(COMMANDS).join(', ')}.`,
    json ? 'USAGE_UNKNOWN_COMMAND' : undefined,
  );
}

/** A usage mistake on stderr; with `jsonCode`, also `{"error": {code, message}}` on stdout. */
function usage(
  io: CommandIO,
  program: string,
  message: string,
  hint: string | undefined,
  jsonCode?: string,
): number {
  if (jsonCode !== undefined) {
    io.stdout(JSON.stringify({ error: { code: jsonCode, message, exit_code: EXIT.usage } }) + '\n');
  }
  // Messages quote file names, flags and record text: escaped so they cannot drive the terminal.
  io.stderr(
    `${program}: ${escapeTerminal(message)}\n${hint === undefined ? '' : `${escapeLines(hint)}\n`}Run "${program === 'runback help' ? 'runback' : program} --help" for usage.\n`,
  );
  return EXIT.usage;
}

/** A hint may span lines (an example command under the message): each line is escaped. */
function escapeLines(text: string): string {
  return text.split('\n').map(escapeTerminal).join('\n');
}

/**
 * The one place a thrown error becomes output and an exit status. With --json (`json` names
 * the command's JSON stream) the error is also `{"error": {code, message, exit_code}}`; on
 * standard error, where the JSON shares the stream with the human text, it is the JSON alone.
 */
function report(
  err: unknown,
  io: CommandIO,
  program: string,
  json: 'stdout' | 'stderr' | undefined,
): number {
  if (json === 'stderr' && (err instanceof CliError || isUsageError(err))) {
    io.stderr(JSON.stringify(errorJson(err)) + '\n');
    return err instanceof CliError ? err.exitCode : EXIT.usage;
  }
  if (err instanceof CliError) {
    if (json !== undefined) io.stdout(JSON.stringify(errorJson(err)) + '\n');
    if (err.exitCode === EXIT.usage) return usage(io, program, err.message, err.hint);
    io.stderr(
      `${program}: ${escapeTerminal(err.message)}\n${err.hint === undefined ? '' : `${escapeLines(err.hint)}\n`}`,
    );
    return err.exitCode;
  }
  if (isUsageError(err)) {
    const code = (err as Error & { code: string }).code;
    return usage(io, program, err.message, undefined, json !== undefined ? code : undefined);
  }
  if (json !== undefined) io[json](JSON.stringify(errorJson(err)) + '\n');
  const debug = io.env['RUNBACK_DEBUG'] !== undefined && io.env['RUNBACK_DEBUG'] !== '';
  io.stderr(
    `${program}: unexpected error: ${escapeTerminal(messageOf(err))}\n` +
      (debug && err instanceof Error && err.stack !== undefined
        ? `${err.stack}\n`
        : 'Run again with RUNBACK_DEBUG=1 for the stack trace.\n') +
      'This is a bug in runback; please report it with the command you ran.\n',
  );
  return EXIT.internal;
}

/** @runback/verify's UsageError (matched by shape, so it works across module copies). */
function isUsageError(err: unknown): err is Error {
  return (
    err instanceof Error &&
    err.name === 'UsageError' &&
    typeof (err as { code?: unknown }).code === 'string'
  );
}

/** The command nearest to a typo (edit distance ≤ 2), if any. */
function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate);
    if (d <= 2 && (best === undefined || d < best.d)) best = { name: candidate, d };
  }
  return best?.name;
}
