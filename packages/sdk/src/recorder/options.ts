// The options of a recorded run, checked up front so a mistake fails before the agent runs.
import type { Signer } from '@runback/sign';
import { argError } from '../core/errors.js';
import type { Actor } from '../core/events.js';
import type { CaptureEnvOptions } from '../session/capture-settings.js';
import type { RedactionOptions } from '../redact/index.js';
import type { ReplaySource } from '../session/replay-source.js';
import type { RunSink } from '../sinks/http-sink.js';

/** How a run is recorded. */
export interface RunOptions {
  /** The run's name, e.g. `loan-approval-agent`. */
  readonly name: string;
  /** The run's input, stored in the run-start event. */
  readonly input?: unknown;
  /** Extra facts stored in the run-start event (build id, ticket, environment fingerprint). */
  readonly metadata?: Record<string, unknown>;
  /** Who started the run. */
  readonly actor?: Actor;
  /** Where to write the sealed record when the run ends (atomically). Without it, `end()` returns the record. */
  readonly out?: string;
  /** Signs the record: Ed25519 (preferred) or HMAC-SHA256. Unsigned without one. */
  readonly signer?: Signer;
  /**
   * Crash safety: append each completed event, fsynced, to a journal (`true`: `<out>.journal`,
   * or a path). Memory then stays bounded by the largest event; the journal is removed once the
   * record is written, and `runback recover` rebuilds the record from it after a crash.
   */
  readonly journal?: boolean | string;
  /**
   * Also sends every event to this sink as it is recorded, e.g. an {@link HttpSink} streaming
   * the run to the audit service. The record is still written to `out` (or returned) as well;
   * `end()` waits for the sink to deliver the run and fails if it could not.
   */
  readonly sink?: RunSink;
  /** Capture clock, randomness, UUIDs and fetch inside the run (default: off). */
  readonly captureEnv?: boolean | CaptureEnvOptions;
  /** Redaction of secrets before anything is hashed or written (default: on), or false. */
  readonly redact?: RedactionOptions | false;
  /** The run id (default: `run_` and 16 random hex digits). */
  readonly runId?: string;
  /**
   * Answer the run's calls from a recorded cassette instead of running them (set by `replay()`
   * and by the `RUNBACK_REPLAY` preload; rarely set by hand).
   */
  readonly replaySource?: ReplaySource;
}

/** Checks the shape of run options; throws labelled TypeErrors. */
export function checkRunOptions(options: RunOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw argError('options', 'an object', options);
  }
  if (typeof options.name !== 'string' || options.name === '') {
    throw argError('options.name', 'a non-empty string', options.name);
  }
  for (const key of ['out', 'runId'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw argError(`options.${key}`, 'a non-empty string', value);
    }
  }
  const journal = options.journal;
  if (
    journal !== undefined &&
    typeof journal !== 'boolean' &&
    (typeof journal !== 'string' || journal === '')
  ) {
    throw argError('options.journal', 'a boolean or a path', journal);
  }
  if (journal === true && options.out === undefined) {
    throw argError('options.journal', 'a path when options.out is not set', journal);
  }
  const sink = options.sink as Partial<RunSink> | undefined;
  if (
    sink !== undefined &&
    (typeof sink !== 'object' ||
      sink === null ||
      typeof sink.write !== 'function' ||
      typeof sink.ready !== 'function' ||
      typeof sink.close !== 'function')
  ) {
    throw argError('options.sink', 'a sink with write, ready and close (an HttpSink)', sink);
  }
  if (
    options.metadata !== undefined &&
    (typeof options.metadata !== 'object' || options.metadata === null)
  ) {
    throw argError('options.metadata', 'an object', options.metadata);
  }
}
