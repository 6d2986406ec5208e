// Errors a command raises on purpose. run-cli's one top-level catch turns a CliError into its
// message and exit status; anything else that escapes a command is a bug (exit 70).

import type { RunbackErrorCode } from '@runback/sdk';
import type { EvidenceErrorCode } from './evidence-codes.js';
import type { OtlpCommandErrorCode } from './otlp-codes.js';
import { EXIT } from '@runback/verify-cli';

/** Exit statuses of every runback command: one table with runback-verify's. */
export { EXIT, type ExitCode } from '@runback/verify-cli';

/**
 * Every stable code a runback command reports (`error.code` in --json output). Usage mistakes
 * (exit 64) start with USAGE_; the others name their command.
 */
export type CliErrorCode =
  // Usage mistakes, any command.
  | 'USAGE_BAD_ARGUMENTS'
  | 'USAGE_NO_COMMAND'
  | 'USAGE_UNEXPECTED_ARGUMENT'
  | 'USAGE_STDIN_TWICE'
  | 'USAGE_UNREADABLE_INPUT'
  | 'USAGE_UNREADABLE_KEY'
  | 'USAGE_KEY_IS_PEM'
  | 'USAGE_BAD_PUBLIC_KEY'
  | 'USAGE_CONFLICTING_FLAGS'
  | 'USAGE_UNKNOWN_COMMAND'
  | 'USAGE_UNKNOWN_OPTION'
  | 'USAGE_CONFLICTING_KEYS'
  | 'USAGE_PUBLIC_KEY_GIVEN'
  | 'USAGE_BAD_PRIVATE_KEY'
  | 'USAGE_EMPTY_HMAC_KEY'
  | 'USAGE_NO_OUT'
  | 'USAGE_BAD_OUT'
  | 'USAGE_INPUT'
  | 'USAGE_RECORD'
  | 'USAGE_TWO_RECORDS'
  | 'USAGE_JOURNAL'
  | 'USAGE_NO_JOURNAL'
  | 'USAGE_BAD_NAME'
  | 'USAGE_BAD_MODE'
  | 'USAGE_BAD_TOOLS'
  | 'USAGE_BAD_GENERATED_AT'
  | 'USAGE_BAD_OUTPUT_LIMIT'
  | 'USAGE_API_KEY_MISSING'
  | 'USAGE_API_URL'
  | 'USAGE_BAD_REPORT'
  // runback sign
  | 'SIGN_INPUT_NOT_JSON'
  | 'SIGN_INPUT_MALFORMED'
  | 'SIGN_CANNOT_SEAL'
  | 'SIGN_NOT_VERIFIABLE'
  | 'SIGN_WRITE_FAILED'
  // runback record
  | 'RECORD_UNREADABLE'
  | 'RECORD_NOT_VERIFIABLE'
  | 'RECORD_NOT_DELIVERED'
  | 'RECORD_WRITE_FAILED'
  // runback record and replay: --report FILE
  | 'REPORT_WRITE_FAILED'
  // runback recover
  | 'RECOVER_IO'
  | 'RECOVER_OUTPUT_EXISTS'
  | 'RECOVER_NOT_VERIFIABLE'
  // runback replay
  | 'REPLAY_UNREADABLE'
  | 'REPLAY_NOT_JSON'
  | 'REPLAY_RECORD_INVALID'
  | 'REPLAY_RECORD_UNTRUSTED'
  // runback diff
  | 'DIFF_NOT_JSON'
  | 'DIFF_NOT_A_RECORD'
  // runback inspect
  | 'INSPECT_NOT_JSON'
  | 'INSPECT_NOT_RECORD'
  // runback keygen
  | 'KEYGEN_EXISTS'
  | 'KEYGEN_WRITE_FAILED'
  // An SDK failure during record, recover or replay, under the command's prefix.
  | `${'RECORD' | 'RECOVER' | 'REPLAY'}_${RunbackErrorCode}`
  // runback log, bundle, anchor, report and verify's evidence checks.
  | EvidenceErrorCode
  // runback export and import (--otlp).
  | OtlpCommandErrorCode;

/** The codes of usage mistakes (exit 64). */
export type CliUsageCode = Extract<CliErrorCode, `USAGE_${string}`>;

/** A failure a command reports to the user, with a stable code and an exit status. */
export class CliError extends Error {
  /** Stable, machine-readable reason, e.g. `SIGN_NOT_VERIFIABLE`. */
  readonly code: CliErrorCode;
  /** The process exit status this error maps to. */
  readonly exitCode: number;
  /** What to do about it, printed after the message. */
  readonly hint: string | undefined;
  /** Extra facts for `--json` output (e.g. the verification result that failed). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: CliErrorCode,
    message: string,
    options: {
      exitCode?: number;
      hint?: string;
      details?: Readonly<Record<string, unknown>>;
    } = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = options.exitCode ?? EXIT.invalid;
    this.hint = options.hint;
    this.details = options.details;
  }
}

/** A command-line mistake (exit 64). */
export function usageError(code: CliUsageCode, message: string, hint?: string): CliError {
  return new CliError(code, message, {
    exitCode: EXIT.usage,
    ...(hint === undefined ? {} : { hint }),
  });
}

/** The message of any thrown value. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * True for the coded TypeErrors the runback libraries throw for malformed data (SignError,
 * CanonicalError, ReplayDigestError): bad input, not a bug.
 */
export function isCodedDataError(err: unknown): err is TypeError & { code: string } {
  return err instanceof TypeError && typeof (err as { code?: unknown }).code === 'string';
}
