/** What a command needs from its environment; tests pass their own. */
export interface CommandIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads a file (or standard input for "-") as bytes. */
  readonly readInput: (path: string) => Promise<Uint8Array>;
  /** Whether stdout is a terminal (colour and symbols are used only there). */
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Documented exit codes of the verify command (format-decisions, "CLI contract"). */
export const EXIT = {
  valid: 0,
  invalid: 1,
  unverified: 2,
  usage: 64,
} as const;

/** A usage mistake: bad flags, a missing file argument, an unreadable key file. Exit 64. */
export class UsageError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'UsageError';
    this.code = code;
  }
}

/** Whether to colour output: only on a TTY, never with NO_COLOR set (https://no-color.org). */
export function useColor(io: Pick<CommandIO, 'isTTY' | 'env'>): boolean {
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  return io.isTTY && io.env['TERM'] !== 'dumb';
}
