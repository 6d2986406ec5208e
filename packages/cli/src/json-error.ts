// The JSON of a failure, in one shape on every command: `{"error": {code, message, exit_code,
// ...details}}`, printed by run-cli with --json and written by --report FILE.
import { CliError, EXIT, messageOf } from './errors.js';

/** The `{"error": …}` object of a failure, as --json prints it. */
export function errorJson(err: unknown): { readonly error: Readonly<Record<string, unknown>> } {
  if (err instanceof CliError) {
    return {
      error: { code: err.code, message: err.message, exit_code: err.exitCode, ...err.details },
    };
  }
  // @runback/verify-cli's UsageError, matched by shape (it works across module copies).
  if (
    err instanceof Error &&
    err.name === 'UsageError' &&
    typeof (err as { code?: unknown }).code === 'string'
  ) {
    return {
      error: {
        code: (err as Error & { code: string }).code,
        message: err.message,
        exit_code: EXIT.usage,
      },
    };
  }
  return { error: { code: 'INTERNAL_ERROR', message: messageOf(err), exit_code: EXIT.internal } };
}
