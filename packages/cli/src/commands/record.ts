// `runback record`: run a program as a recorded run and write its sealed, signed record
// (docs/guides/recording.md). The work is the SDK's recordCommand; this wires flags, output and the
// verification of what was written.
import { RunbackError, httpSinkFromEnv, type HttpSink } from '@runback/sdk';
import { recordCommand, type RecordCommandResult } from '@runback/sdk/process';
import { verifyJson, type VerifyResult } from '@runback/verify';
import { escapeTerminal as t, makeStyle, useColor, type CommandIO } from '@runback/verify-cli';
import { readFile } from 'node:fs/promises';
import type { Command } from '../command.js';
import { parseCommandArgs, splitAtDoubleDash } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { programName } from '../inspect/program.js';
import { assertOutputFolder } from '../out-path.js';
import { checkReportPath, reportFlag, reportingFailures, writeJsonReport } from '../json-report.js';
import { SIGNER_OPTIONS, loadSigner, verifiesAsSigned, type LoadedSigner } from '../sign/signer.js';

const usage = `Usage: runback record --out FILE [--key PEM_FILE | --hmac-key K | --hmac-key-file F]
                      [--journal] [--name NAME] [--no-preload] [--output-limit BYTES]
                      [--json] [--report FILE] -- COMMAND [ARGS...]

Run COMMAND as a recorded run and write its sealed record to FILE. The record holds argv,
cwd, the exit status, stdout and stderr (text up to the limit, plus the byte count and
SHA-256 of everything) and an environment fingerprint (Node version, OS, git revision and
dirty flag, lockfile digest, environment variable names — never their values). For a Node
program the SDK is preloaded (NODE_OPTIONS=--import), so its OpenAI and Anthropic calls,
fetch, Date.now / new Date(), Math.random and crypto.randomUUID are recorded too, with no
code change. Secrets are redacted before anything is written.

Streams: standard output is the program's own, passed through unchanged; runback's report
(human or --json), messages and errors go to standard error, after the program's output.

Options:
  --out FILE           the record to write (atomically)
  --key PEM_FILE       sign with this Ed25519 private key (from runback keygen)
  --hmac-key K         sign with HMAC-SHA256 under the shared secret K
  --hmac-key-file F    read the HMAC secret from F
  --journal            crash safety: fsync every event to FILE.journal as it happens; if the
                       recording is killed, "runback recover FILE.journal" rebuilds the record
  --name NAME          the run name (default: the program's name: the script an interpreter
                       runs, e.g. agent.js for "node agent.js", else the command's base name)
  --no-preload         do not preload the SDK into Node programs
  --output-limit N     bytes of stdout and of stderr kept as text (default 65536)
  --json               print the report as one JSON line (snake_case) on standard error;
                       an error is {"error": {"code", "message", "exit_code"}} there instead
  --report FILE        also write that JSON (the report, or the error) to FILE, atomically
  -h, --help           show this help

A command that cannot be started (not found, not executable) is not a recorded success:
runback says so ("✗ Could not start"), exits 127, and the record written to FILE says the
same — status "error" with a SpawnError, no exit code — so the attempt itself is evidence.

Exit status: the command's own exit status (128 + the signal number if a signal ended it,
127 if it could not be started) once the record is written; 1 the record could not be
written or did not verify (or --report FILE could not be written); 64 usage error.`;

const SIGNALS: Readonly<Record<string, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGKILL: 9,
  SIGTERM: 15,
};

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const { flags } = splitAtDoubleDash(argv);
  return reportingFailures(reportFlag(flags), () => record(argv, io));
}

async function record(argv: readonly string[], io: CommandIO): Promise<number> {
  const { flags, program: commandLine } = splitAtDoubleDash(argv);
  const { values, positionals } = parseCommandArgs({
    args: [...flags],
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      ...SIGNER_OPTIONS,
      journal: { type: 'boolean', default: false },
      name: { type: 'string' },
      'no-preload': { type: 'boolean', default: false },
      'output-limit': { type: 'string' },
      json: { type: 'boolean', default: false },
      report: { type: 'string' },
    },
  });
  if (positionals.length > 0 || commandLine.length === 0) {
    throw usageError(
      'USAGE_NO_COMMAND',
      positionals.length > 0
        ? `expected the command after "--", got ${JSON.stringify(positionals[0])} before it`
        : 'expected a command to record after "--", got none',
      'Example: runback record --out run.json -- node agent.js',
    );
  }
  if (values.out === undefined || values.out === '') {
    throw usageError('USAGE_NO_OUT', 'expected --out FILE, the record to write, got none');
  }
  if (values.name === '') {
    throw usageError('USAGE_BAD_NAME', 'expected --name to be a run name, got ""');
  }
  if (values.report !== undefined) checkReportPath(values.report, [values.out]);
  // Before the program runs: a record that cannot be written must not cost a run.
  await assertOutputFolder('--out', values.out);
  if (values.report !== undefined) await assertOutputFolder('--report', values.report);
  const limit = values['output-limit'] === undefined ? 65_536 : Number(values['output-limit']);
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw usageError(
      'USAGE_BAD_OUTPUT_LIMIT',
      `expected --output-limit to be a whole number of bytes, got ${JSON.stringify(values['output-limit'])}`,
    );
  }
  const loaded = await loadSigner(values, io);
  const [command, ...args] = commandLine as [string, ...string[]];

  // RUNBACK_API_URL + RUNBACK_API_KEY: the run is also delivered to the audit service. Both are
  // kept out of the recorded command's environment: the program must not see the API key.
  let sink: HttpSink | undefined;
  const apiUrl = io.env['RUNBACK_API_URL'];
  if (apiUrl !== undefined && apiUrl !== '' && !/^https?:\/\/[^/]/i.test(apiUrl)) {
    throw usageError(
      'USAGE_API_URL',
      `expected RUNBACK_API_URL to be an http(s) URL, got ${JSON.stringify(apiUrl)}`,
    );
  }
  try {
    sink = httpSinkFromEnv(io.env);
  } catch (err) {
    throw usageError('USAGE_API_KEY_MISSING', messageOf(err));
  }
  const childEnv = sink === undefined ? undefined : withoutApiVariables(process.env);

  const stdoutDecoder = new TextDecoder();
  const stderrDecoder = new TextDecoder();
  let result: RecordCommandResult;
  try {
    result = await recordCommand({
      command,
      args,
      out: values.out,
      signer: loaded.signer,
      journal: values.journal,
      name: values.name ?? programName(commandLine) ?? command,
      preload: !values['no-preload'],
      outputLimit: limit,
      ...(childEnv === undefined ? {} : { env: childEnv }),
      onStdout: (chunk) => io.stdout(stdoutDecoder.decode(chunk, { stream: true })),
      onStderr: (chunk) => io.stderr(stderrDecoder.decode(chunk, { stream: true })),
    });
  } catch (err) {
    if (err instanceof RunbackError) {
      throw new CliError(`RECORD_${err.code}`, err.message, {
        hint: 'The command may have run; its record was not written.',
      });
    }
    if (isFileSystemError(err)) {
      throw new CliError('RECORD_WRITE_FAILED', `cannot write ${values.out}: ${err.message}`, {
        hint: 'The command may have run; its record was not written.',
      });
    }
    throw err;
  }

  const verification = await verifyWritten(values.out, loaded);
  const delivered = sink === undefined ? undefined : await deliver(values.out, sink);
  const report = {
    ...reportOf(result, verification, values.out, loaded),
    ...(delivered === undefined
      ? {}
      : { delivered: { run_id: delivered.runId, export_url: delivered.exportUrl } }),
  };
  if (values.json) io.stderr(JSON.stringify(report) + '\n');
  else {
    io.stderr(formatReport(report, makeStyle(useColor(io))));
    if (delivered !== undefined) io.stderr(`  delivered  ${t(delivered.exportUrl)}\n`);
  }
  if (!verifiesAsSigned(verification, loaded)) {
    throw new CliError(
      'RECORD_NOT_VERIFIABLE',
      `the record written to ${values.out} does not verify (${verification.verdict})`,
      {
        details: { verification },
      },
    );
  }
  if (values.report !== undefined) await writeJsonReport(values.report, report);
  if (result.spawnError !== undefined) return 127;
  if (result.signal !== null) return 128 + (SIGNALS[result.signal] ?? 0);
  return result.exitCode ?? EXIT.invalid;
}

/** A failed read or write of a file (ENOENT, EACCES, ENOSPC, …), not a bug. */
function isFileSystemError(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';
}

function withoutApiVariables(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const { RUNBACK_API_URL: _url, RUNBACK_API_KEY: _key, ...rest } = env;
  return rest;
}

/** Sends the written record's events through the sink and finishes the run at the service. */
async function deliver(path: string, sink: HttpSink) {
  const record = JSON.parse(await readFile(path, 'utf8')) as { events?: unknown };
  for (const event of Array.isArray(record.events) ? record.events : []) {
    sink.write(JSON.stringify(event));
    const full = sink.ready();
    if (full !== undefined) await full;
  }
  try {
    return await sink.close();
  } catch (err) {
    throw new CliError('RECORD_NOT_DELIVERED', messageOf(err), {
      hint: `The record was written to ${path}; only its delivery to RUNBACK_API_URL failed.`,
    });
  }
}

async function verifyWritten(path: string, loaded: LoadedSigner): Promise<VerifyResult> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw new CliError('RECORD_UNREADABLE', `cannot read back ${path}: ${messageOf(err)}`);
  }
  return verifyJson(bytes, loaded.trust);
}

interface RecordReport {
  readonly out: string;
  readonly run_id: string;
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly spawn_error: string | null;
  readonly event_count: number;
  readonly event_types: Readonly<Record<string, number>>;
  readonly signature: { readonly alg: string; readonly key_id?: string } | null;
  readonly verdict: VerifyResult['verdict'];
  readonly stdout_bytes: number;
  readonly stderr_bytes: number;
}

function reportOf(
  result: RecordCommandResult,
  verification: VerifyResult,
  out: string,
  loaded: LoadedSigner,
): RecordReport {
  const types = { ...result.report.eventTypes };
  types['run'] = (types['run'] ?? 0) + (result.report.appendedEnd ? 1 : 0);
  const sig = result.report.manifest.signature;
  return {
    out,
    run_id: result.report.runId,
    exit_code: result.exitCode,
    signal: result.signal,
    spawn_error: result.spawnError ?? null,
    event_count: result.report.manifest.event_count,
    event_types: types,
    signature:
      sig === undefined
        ? null
        : { alg: sig.alg, ...(loaded.keyId === undefined ? {} : { key_id: loaded.keyId }) },
    verdict: verification.verdict,
    stdout_bytes: result.stdout.bytes,
    stderr_bytes: result.stderr.bytes,
  };
}

function formatReport(report: RecordReport, style: ReturnType<typeof makeStyle>): string {
  const types = Object.entries(report.event_types)
    .map(([type, n]) => `${n} ${t(type)}`)
    .join(', ');
  const signature =
    report.signature === null
      ? style.yellow('none (unsigned: pass --key to sign)')
      : `${report.signature.alg}${report.signature.key_id === undefined ? '' : `, key ${t(report.signature.key_id)}`}`;
  const verified = report.verdict === 'invalid' ? style.red(report.verdict) : report.verdict;
  if (report.spawn_error !== null) {
    // Nothing ran: say so first, and that the record is of the failed start.
    return [
      `${style.red('✗')} Could not start the command: ${style.red(t(report.spawn_error))}`,
      `  record     ${t(report.run_id)} → ${t(report.out)} says so (status error, SpawnError)`,
      `  signature  ${signature}`,
      `  verified   ${verified}`,
      `  exit       127 (check the command's name, PATH and permissions)`,
      '',
    ].join('\n');
  }
  const status =
    report.signal !== null
      ? style.red(`ended by ${report.signal}`)
      : report.exit_code === 0
        ? style.green('exit 0')
        : style.red(`exit ${report.exit_code} (the command failed; its failure is recorded)`);
  const mark = report.verdict === 'invalid' ? style.red('✗') : style.green('✓');
  return [
    `${mark} Recorded ${t(report.run_id)} → ${t(report.out)}`,
    `  command    ${status}`,
    `  events     ${report.event_count} (${types})`,
    `  signature  ${signature}`,
    `  verified   ${verified}`,
    '',
  ].join('\n');
}

export const command: Command = { usage, run, jsonStream: 'stderr' };
