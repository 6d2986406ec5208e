// Errors a command raises on purpose. run-cli's one top-level catch turns a CliError into its
// message and exit status; anything else that escapes a command is a bug (exit 70).

/** Exit statuses of every runback command (documented in --help and the README). */
export const EXIT = {
  /** Success; for verify: the record is valid. */
  ok: 0,
  /** Invalid input or a refused operation: a record that does not verify or does not parse. */
  invalid: 1,
  /** verify: the record is intact but its signer is not proven. */
  unverified: 2,
  /** The command line is wrong: unknown command or flag, missing or unreadable argument file. */
  usage: 64,
  /** An unexpected internal error (a bug in runback). */
  internal: 70,
} as const;

/** A failure a command reports to the user, with a stable code and an exit status. */
export class CliError extends Error {
  /** Stable, machine-readable reason, e.g. `SIGN_NOT_VERIFIABLE`. */
  readonly code: string;
  /** The process exit status this error maps to. */
  readonly exitCode: number;
  /** What to do about it, printed after the message. */
  readonly hint: string | undefined;
  /** Extra facts for `--json` output (e.g. the verification result that failed). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: string,
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
export function usageError(code: string, message: string, hint?: string): CliError {
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
