// What a command needs from its environment, its exit statuses and its usage mistakes.
// Shared by `runback-verify` and every `runback` command of @runback/cli.
import type { InputStream, ReadInputOptions } from './read-bounded.js';

/** What a command needs from its environment; tests pass their own. */
export interface CommandIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /**
   * Reads a file (or standard input for "-") as bytes. With `maxBytes`, only a regular file or
   * "-" is read, and input longer than the cap is refused (InputError, read-bounded.ts);
   * `allocate`, when given, is asked for the buffer a regular file is read into.
   */
  readonly readInput: (path: string, options?: ReadInputOptions) => Promise<Uint8Array>;
  /**
   * Opens a regular file (never "-") as a stream of chunks, refusing anything else and, with
   * `maxBytes`, a longer file (read-bounded.ts). Optional: without it, verify reads the whole
   * file through `readInput`.
   */
  readonly streamInput?: (
    path: string,
    options?: { maxBytes?: number | undefined },
  ) => Promise<InputStream>;
  /** Whether stdout is a terminal (colour and symbols are used only there). */
  readonly isTTY: boolean;
  /**
   * Whether stderr is a terminal: progress of a long verification is shown only there (absent:
   * not a terminal).
   */
  readonly stderrIsTTY?: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Exit statuses of `runback-verify` and of every `runback` command (their READMEs list them). */
export const EXIT = {
  /** Success; for verify: the record is valid. */
  ok: 0,
  /** Invalid input or a refused operation: a record that does not verify or does not parse. */
  invalid: 1,
  /** verify: the record is intact but its signer is not proven. */
  unverified: 2,
  /** The command line is wrong: unknown flag, missing or unreadable argument file. */
  usage: 64,
  /** An unexpected internal error (a bug in runback). */
  internal: 70,
} as const;

/** One of the documented exit statuses. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Stable codes of the verify command's usage mistakes. */
export type VerifyUsageCode =
  'USAGE_UNREADABLE_KEY' | 'USAGE_KEY_IS_PEM' | 'USAGE_CONFLICTING_FLAGS' | 'USAGE_BAD_PUBLIC_KEY';

/** A usage mistake: bad flags, a missing file argument, an unreadable key file. Exit 64. */
export class UsageError extends Error {
  readonly code: VerifyUsageCode;
  constructor(code: VerifyUsageCode, message: string) {
    super(message);
    this.name = 'UsageError';
    this.code = code;
  }
}
