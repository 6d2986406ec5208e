// Errors the SDK raises on purpose, each with a stable code (house rule 4). Bad arguments from
// the caller are TypeErrors labelled with the argument; failures of a run, a journal or a write
// are RunbackErrors.
import { describeValue } from './values.js';

/** Stable codes of {@link RunbackError}. */
export type RunbackErrorCode =
  /** An option or argument has the wrong shape. */
  | 'ARG_INVALID'
  /** The run has already ended: nothing more can be recorded in it. */
  | 'RUN_ENDED'
  /** A value the agent produced has no JSON form (NaN, Infinity, BigInt, a cycle). */
  | 'VALUE_NOT_JSON'
  /** The journal file does not start with a runback journal header. */
  | 'JOURNAL_HEADER_INVALID'
  /** An interior journal line is not a sealed event of this run. */
  | 'JOURNAL_CORRUPT'
  /** A journal line's HMAC does not check under the key, or the key does not match the journal's. */
  | 'JOURNAL_UNAUTHENTIC'
  /** Recovery was given a signing key but the journal carries no line MACs. */
  | 'JOURNAL_UNAUTHENTICATED'
  /** The journal holds no run-start event, so there is no run to recover. */
  | 'JOURNAL_EMPTY'
  /** The journal's run has already ended and was sealed; there is nothing to recover. */
  | 'JOURNAL_COMPLETE'
  /** The target file exists and overwriting was not asked for. */
  | 'OUTPUT_EXISTS'
  /** A replayed call that no recorded call answers (strict or ordered replay). */
  | 'REPLAY_MISS'
  /** The record to replay does not verify, or is not a record. */
  | 'REPLAY_RECORD_INVALID'
  /** The record to replay is intact but not `valid` under the trust the replay was given. */
  | 'REPLAY_RECORD_UNTRUSTED'
  /** A call in a replay that its integration cannot answer from the record. */
  | 'REPLAY_UNSUPPORTED'
  /** A request about to leave the process carries a replay's placeholder credential. */
  | 'REPLAY_PLACEHOLDER_CREDENTIAL'
  /** The run could not be delivered to the audit service (HttpSink). */
  | 'HTTP_SINK_FAILED'
  /** A copy of the SDK of another protocol is recording the run this call would belong to. */
  | 'SDK_COPY_MISMATCH';

/** A failure of recording, journaling or recovery, with a stable code. */
export class RunbackError extends Error {
  readonly code: RunbackErrorCode;

  constructor(code: RunbackErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunbackError';
    this.code = code;
  }
}

/** A TypeError whose message names the argument, as `expected X, got Y`. */
export function argError(name: string, expected: string, got: unknown): TypeError {
  return Object.assign(new TypeError(`${name}: expected ${expected}, got ${describeValue(got)}`), {
    code: 'ARG_INVALID' as const,
  });
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
