// `runback replay`: run a program again with its recorded calls answering, and prove that it
// reproduces its record. The replay machinery is the SDK's (the same
// preload as `runback record`, with RUNBACK_REPLAY set); this wires flags, reads the records
// and reports.
import { diffJson } from '@runback/diff';
import {
  REPLAY_MODES,
  REPLAY_TOOLS,
  RunbackError,
  type ReplayMode,
  type ReplayTools,
} from '@runback/sdk';
import {
  PLACEHOLDER_CREDENTIAL,
  compareRuns,
  placeholderNames,
  recordCommand,
  recordedProviders,
} from '@runback/sdk/process';
import { verifyJson } from '@runback/verify';
import { makeStyle, useColor, type CommandIO } from '@runback/verify-cli';
import { randomBytes } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from '../command.js';
import { parseCommandArgs, splitAtDoubleDash } from '../command.js';
import { CliError, EXIT, messageOf, usageError } from '../errors.js';
import { checkReportPath, reportFlag, reportingFailures, writeJsonReport } from '../json-report.js';
import { assertOutputFolder } from '../out-path.js';
import { parseRecordJson } from '../record-json.js';
import { loadSigner } from '../sign/signer.js';
import { formatReplayReport } from '../replay/format.js';
import { replayReportJson } from '../replay/json.js';
import { loadTrust } from '../replay/trust.js';

const usage = `Usage: runback replay RECORD [--mode strict|ordered|live-on-miss] [--tools recorded|live]
                      [--out FILE] [--pubkey PEM_FILE]... [--allow-unverified] [--key PEM_FILE]
                      [--json] [--report FILE] -- COMMAND [ARGS...]

Run COMMAND again with every model, tool, fetch, clock, randomness and UUID call answered
from RECORD (no network, no API key, no cost), record the replayed run, and compare it with
RECORD: the replay reproduces when its cassette digest equals the recorded one and its output
(exit status, stdout, stderr) is the same. For Node programs, through the same preload as
runback record. RECORD is read once and verified; a record that does not verify is refused,
and the program is served exactly the bytes that were verified (a private copy), so a file
changed after the check cannot feed it other answers.

Modes:
  strict         every call must match a recorded call's key (default); a call that does not
                 fails loudly, naming the nearest recorded call and the request difference
  ordered        the n-th call of a kind and name gets the n-th recorded answer, so a changed
                 program completes and runback diff shows what it changed
  live-on-miss   unmatched calls go live (fork the run with another model or prompt); the new
                 record names its parent in its run-start metadata (replay_of)

Tool bodies (the program's own tool() calls, when it records them with @runback/sdk):
  --tools recorded   a tool() call is answered with its recorded output and its body does not
                     run (default): a changed tool implementation still reproduces as long as
                     the program asks it the same input; the report counts such calls
  --tools live       each tool() body runs, its own model, tool, fetch, clock and random calls
                     answered from RECORD, and what it returns is compared with the recorded
                     output: a changed implementation diverges at that tool call
  Code that is not inside tool() always runs, and its calls are always answered from RECORD.

Options:
  --out FILE         keep the replayed run's record here (default: a temporary file, removed)
  --pubkey PEM_FILE  a public key RECORD must be signed by (repeatable): a record signed by
                     another key, or unsigned, is refused (exit 2); without --pubkey an
                     intact record is replayed and reported as unverified
  --allow-unverified with --pubkey, still replay an intact record that is not signed by one
                     of the keys (reported as unverified); an edited record is always refused
  --key PEM_FILE     sign the replayed run's record with this Ed25519 private key
  --json             print the report as one JSON line (snake_case) on standard error; an
                     error is {"error": {"code", "message", "exit_code"}} there instead
  --report FILE      also write that JSON (the report, or the error) to FILE, atomically
  -h, --help         show this help

Each provider RECORD's model calls went to (OpenAI, Anthropic, …) gets a placeholder API key
(${PLACEHOLDER_CREDENTIAL}) in every key variable the environment leaves unset or
empty, so that clients start; a key you set is kept. The report names them. A placeholder
never leaves the program: a request carrying one is refused before it is sent.

Streams: standard output is the program's own, passed through unchanged; runback's report
(human or --json), messages and errors go to standard error.

Exit status: 0 reproduced, 1 diverged, 2 RECORD could not be used (unreadable, not a record,
it does not verify, or it is not signed by a --pubkey key), 64 usage error.`;

async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  return reportingFailures(reportFlag(splitAtDoubleDash(argv).flags), () => replay(argv, io));
}

async function replay(argv: readonly string[], io: CommandIO): Promise<number> {
  const { flags, program: commandLine } = splitAtDoubleDash(argv);
  const { values, positionals } = parseCommandArgs({
    args: [...flags],
    allowPositionals: true,
    strict: true,
    options: {
      mode: { type: 'string', default: 'strict' },
      tools: { type: 'string', default: 'recorded' },
      out: { type: 'string' },
      pubkey: { type: 'string', multiple: true },
      'allow-unverified': { type: 'boolean', default: false },
      key: { type: 'string' },
      json: { type: 'boolean', default: false },
      report: { type: 'string' },
    },
  });
  if (positionals.length !== 1) {
    throw usageError(
      'USAGE_RECORD',
      `expected one RECORD before "--", got ${positionals.length === 0 ? 'none' : positionals.length}`,
      'Example: runback replay baseline.json -- node agent.js',
    );
  }
  if (commandLine.length === 0) {
    throw usageError('USAGE_NO_COMMAND', 'expected a command to replay after "--", got none');
  }
  const mode = values.mode as ReplayMode;
  if (!REPLAY_MODES.includes(mode)) {
    throw usageError(
      'USAGE_BAD_MODE',
      `expected --mode to be one of ${REPLAY_MODES.join(', ')}, got ${JSON.stringify(values.mode)}`,
    );
  }
  const tools = values.tools as ReplayTools;
  if (!REPLAY_TOOLS.includes(tools)) {
    throw usageError(
      'USAGE_BAD_TOOLS',
      `expected --tools to be one of ${REPLAY_TOOLS.join(', ')}, got ${JSON.stringify(values.tools)}`,
    );
  }
  const recordPath = positionals[0] as string;
  if (values.report !== undefined) checkReportPath(values.report, [recordPath, values.out]);
  if (values.out !== undefined) await assertOutputFolder('--out', values.out);
  if (values.report !== undefined) await assertOutputFolder('--report', values.report);
  const trust = await loadTrust(values.pubkey ?? [], io);
  const signer = await loadSigner({ key: values.key }, io);

  const bytes = await readRecordBytes(recordPath, io);
  const verification = verifyJson(bytes, trust);
  if (verification.verdict === 'invalid') {
    const first = verification.errors[0];
    throw new CliError(
      'REPLAY_RECORD_INVALID',
      `refusing to replay ${recordPath}: it does not verify (${first === undefined ? 'invalid' : `${first.check}: ${first.message}`})`,
      { exitCode: 2, hint: `Run "runback verify ${recordPath}" for the details.` },
    );
  }
  if (
    (values.pubkey ?? []).length > 0 &&
    verification.verdict !== 'valid' &&
    !values['allow-unverified']
  ) {
    const why =
      verification.checks.signature === 'unsigned'
        ? 'it is unsigned'
        : `its signature is ${verification.checks.signature}`;
    throw new CliError(
      'REPLAY_RECORD_UNTRUSTED',
      `refusing to replay ${recordPath}: expected a record signed by a --pubkey key, got ${verification.verdict} (${why})`,
      {
        exitCode: 2,
        hint: 'Pass the key that signed it, or --allow-unverified to replay an intact record anyway.',
      },
    );
  }
  const recorded = parseRecord(bytes, recordPath);
  const start = recorded.events.find((e) => e['type'] === 'run' && e['phase'] === 'start');

  const out =
    values.out ??
    join(tmpdir(), `runback-replay-${process.pid}-${randomBytes(6).toString('hex')}.json`);
  const [command, ...args] = commandLine as [string, ...string[]];
  // Model clients refuse to start without an API key although every call is answered from the
  // record: each provider the record used gets a placeholder where the environment has none.
  const placeholders = placeholderNames(recordedProviders(recorded.events), process.env);
  const env = { ...process.env };
  for (const name of placeholders) env[name] = PLACEHOLDER_CREDENTIAL;
  const stdoutDecoder = new TextDecoder();
  const stderrDecoder = new TextDecoder();
  try {
    try {
      await recordCommand({
        command,
        args,
        out,
        env,
        signer: signer.signer,
        name: typeof start?.['name'] === 'string' ? start['name'] : command,
        replay: {
          // The verified bytes themselves: the preload never reads recordPath again.
          bytes,
          mode,
          tools,
          of: {
            run_id: recorded.manifest.run_id,
            content_digest: recorded.manifest.content_digest,
            cassette_digest: recorded.manifest.replay.cassette_digest,
            mode,
            ...(tools === 'live' ? { tools } : {}),
          },
        },
        onStdout: (chunk) => io.stdout(stdoutDecoder.decode(chunk, { stream: true })),
        onStderr: (chunk) => io.stderr(stderrDecoder.decode(chunk, { stream: true })),
      });
    } catch (err) {
      if (err instanceof RunbackError) throw new CliError(`REPLAY_${err.code}`, err.message);
      throw err;
    }
    const replayed = parseRecord(await readFile(out), out);
    const report = compareRuns(recorded, replayed, mode, verification, undefined, placeholders);
    const outputDiff = diffJson(report.recorded.output, report.replayed.output);
    const json = replayReportJson(report, recordPath, values.out, outputDiff);
    if (values.report !== undefined) await writeJsonReport(values.report, json);
    if (values.json) {
      io.stderr(JSON.stringify(json) + '\n');
    } else {
      io.stderr(
        formatReplayReport(
          report,
          recordPath,
          verification,
          outputDiff,
          values.out,
          makeStyle(useColor(io)),
        ),
      );
    }
    return report.status === 'reproduced' ? EXIT.ok : EXIT.invalid;
  } finally {
    if (values.out === undefined) await unlink(out).catch(() => undefined);
  }
}

interface ParsedRecord {
  readonly manifest: {
    run_id: string;
    content_digest: string;
    replay: { cassette_digest: string; entry_count: number };
  };
  readonly run: Record<string, unknown>;
  readonly events: Record<string, unknown>[];
}

async function readRecordBytes(path: string, io: CommandIO): Promise<Uint8Array> {
  try {
    return await io.readInput(path);
  } catch (err) {
    throw new CliError('REPLAY_UNREADABLE', `cannot read ${path}: ${messageOf(err)}`, {
      exitCode: 2,
    });
  }
}

function parseRecord(bytes: Uint8Array, path: string): ParsedRecord {
  return parseRecordJson(bytes, path, 'REPLAY_NOT_JSON') as ParsedRecord;
}

export const command: Command = { usage, run, jsonStream: 'stderr' };
