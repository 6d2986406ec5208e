// Zero-code capture: run a program as a recorded run. The run-start event
// holds argv, cwd and the environment fingerprint; a Node program also gets the SDK preloaded
// (NODE_OPTIONS=--import), which appends its model, fetch, clock, randomness and UUID calls to
// the same journal; the run-end event holds the exit status and the captured output. Then the
// journal is sealed into the record.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Signer } from '@runback/sign';
import { argError } from '../core/errors.js';
import type { CaptureEnvOptions } from '../session/capture-settings.js';
import { beginJournalRun, preloadSpecifier } from '../journal/begin.js';
import { journalPathFor } from '../journal/format.js';
import { sealJournal, type SealJournalReport } from '../journal/seal.js';
import { environmentFingerprint } from './fingerprint.js';
import { OutputCapture, type CapturedOutput } from './output-capture.js';
import { REPLAY_ENV, WATCH_PARENT_ENV } from '../journal/child-env.js';
import { REPLAY_COPY_DIR, SCRATCH_JOURNAL, removeStaleTemps } from '../journal/stale-temps.js';
import type { ReplayMode } from '../session/replay-source.js';
import type { ReplayTools } from '../session/replay-tools.js';

/** Options of {@link recordCommand}. */
export interface RecordCommandOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** The record file to write. */
  readonly out: string;
  readonly signer?: Signer | undefined;
  /** Keep a crash-safe journal (every event fsynced) at `<out>.journal` until the record is written. */
  readonly journal?: boolean;
  /** The run name (default: the command's base name). */
  readonly name?: string;
  readonly cwd?: string;
  /** The command's environment (default: this process's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Preload the SDK into Node programs (default true). */
  readonly preload?: boolean;
  /** What the preloaded SDK captures (default: everything but performance.now). */
  readonly capture?: boolean | CaptureEnvOptions;
  /** Bytes of stdout and of stderr kept as text in the record (default 65536). */
  readonly outputLimit?: number;
  /** Receive the command's output as it is produced (default: discarded after capture). */
  readonly onStdout?: (chunk: Uint8Array) => void;
  readonly onStderr?: (chunk: Uint8Array) => void;
  /**
   * Replay instead of live: the preloaded program's calls are answered from this record, and
   * the run is recorded as its replay. `bytes` are the record exactly as the caller verified
   * it: the preload is served a private copy of them (a file of mode 0600 in a new directory of
   * mode 0700, removed afterwards), never a path someone else could change in between.
   */
  readonly replay?: {
    readonly bytes: Uint8Array;
    readonly mode: ReplayMode;
    /** Whether `tool()` bodies run (`live`) or their recorded outputs answer (the default). */
    readonly tools?: ReplayTools;
    readonly of?: Record<string, unknown>;
  };
}

/** What running and recording a command produced. */
export interface RecordCommandResult {
  /** The exit code, or null when a signal ended the command (or it could not start). */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Why the command could not start, if it could not. */
  readonly spawnError: string | undefined;
  readonly stdout: CapturedOutput;
  readonly stderr: CapturedOutput;
  readonly report: SealJournalReport;
}

const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Runs a command as a recorded run and writes its sealed record. */
export async function recordCommand(options: RecordCommandOptions): Promise<RecordCommandResult> {
  if (typeof options.command !== 'string' || options.command === '') {
    throw argError('command', 'a non-empty string', options.command);
  }
  const args = [...(options.args ?? [])];
  const cwd = resolve(options.cwd ?? process.cwd());
  const baseEnv = options.env ?? process.env;
  const limit = options.outputLimit ?? 65_536;
  if (!Number.isSafeInteger(limit) || limit < 0)
    throw argError('outputLimit', 'an integer >= 0', limit);

  // What killed runs left in the temporary directory (their pid gone) is removed here.
  await removeStaleTemps(tmpdir(), SCRATCH_JOURNAL);
  await removeStaleTemps(tmpdir(), REPLAY_COPY_DIR);
  const journal = options.journal
    ? journalPathFor(options.out)
    : join(tmpdir(), `runback-${process.pid}-${randomBytes(6).toString('hex')}.journal`);
  const run = beginJournalRun({
    journal,
    name: options.name ?? basename(options.command),
    input: { argv: [options.command, ...args], cwd },
    metadata: {
      recorder: options.replay === undefined ? 'runback record' : 'runback replay',
      environment: await environmentFingerprint(cwd, baseEnv),
      ...(options.replay?.of === undefined ? {} : { replay_of: options.replay.of }),
    },
    sync: options.journal ?? false,
    signer: options.signer,
  });

  const env: Record<string, string | undefined> = { ...baseEnv };
  if (options.preload ?? true) {
    Object.assign(env, run.childEnv(options.capture ?? true));
    const importFlag = `--import=${preloadSpecifier()}`;
    env['NODE_OPTIONS'] = [importFlag, baseEnv['NODE_OPTIONS']].filter(Boolean).join(' ');
  }
  let privateDir: string | undefined;
  try {
    if (options.replay !== undefined && (options.preload ?? true)) {
      privateDir = await mkdtemp(join(tmpdir(), `runback-replay-${process.pid}-`));
      const copy = join(privateDir, 'record.json');
      await writeFile(copy, options.replay.bytes, { mode: 0o600, flag: 'wx' });
      env[REPLAY_ENV.path] = copy;
      env[REPLAY_ENV.mode] = options.replay.mode;
      env[REPLAY_ENV.tools] = options.replay.tools ?? 'recorded';
    }
    return await runAndSeal(options, args, cwd, env, journal, limit);
  } finally {
    if (privateDir !== undefined) await rm(privateDir, { recursive: true, force: true });
    if (!options.journal) await unlink(journal).catch(() => undefined);
  }
}

async function runAndSeal(
  options: RecordCommandOptions,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  journal: string,
  limit: number,
): Promise<RecordCommandResult> {
  const stdout = new OutputCapture(limit);
  const stderr = new OutputCapture(limit);
  const outcome = await new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    error?: Error;
  }>((done) => {
    // A preloaded program gets an IPC channel it watches: when this process dies (even by
    // SIGKILL) the channel closes and the preload ends the program, so it cannot go on running
    // while `runback recover` seals a partial run.
    const preloaded = options.preload ?? true;
    const child = spawn(options.command, args, {
      cwd,
      env: preloaded ? { ...env, [WATCH_PARENT_ENV]: '1' } : env,
      stdio: preloaded ? ['inherit', 'pipe', 'pipe', 'ipc'] : ['inherit', 'pipe', 'pipe'],
    });
    const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
    const handlers = FORWARDED.map((signal) => [signal, forward(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const cleanup = () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
    (child.stdout as Readable).on('data', (chunk: Buffer) => {
      stdout.add(chunk);
      options.onStdout?.(chunk);
    });
    (child.stderr as Readable).on('data', (chunk: Buffer) => {
      stderr.add(chunk);
      options.onStderr?.(chunk);
    });
    child.once('error', (error) => {
      cleanup();
      done({ code: null, signal: null, error });
    });
    child.once('close', (code, signal) => {
      cleanup();
      done({ code, signal });
    });
  });

  const out = { stdout: stdout.result(), stderr: stderr.result() };
  const failed = outcome.error !== undefined || outcome.code !== 0;
  const error =
    outcome.error !== undefined
      ? { name: 'SpawnError', message: `cannot run ${options.command}: ${outcome.error.message}` }
      : outcome.signal !== null
        ? { name: 'Signal', message: `the command was ended by ${outcome.signal}` }
        : outcome.code !== 0
          ? { name: 'NonZeroExit', message: `the command exited with status ${outcome.code}` }
          : null;
  let report: SealJournalReport;
  try {
    report = await sealJournal(journal, {
      out: options.out,
      signer: options.signer,
      end: {
        status: failed ? 'error' : 'success',
        output: { exit_code: outcome.code, signal: outcome.signal, ...out },
        error,
      },
    });
  } finally {
    // A scratch journal never outlives the command; a --journal one survives a failed seal,
    // so that "runback recover" can still rebuild the record.
    if (!options.journal) await unlink(journal).catch(() => undefined);
  }
  if (options.journal) await unlink(journal);
  return {
    exitCode: outcome.code,
    signal: outcome.signal,
    spawnError: outcome.error?.message,
    ...out,
    report,
  };
}
