// Progress of a file verified as a stream (over 64 MiB: seconds to minutes), on stderr when it
// is a terminal, so that a long verification does not look like a hang. One line rewritten in
// place with a carriage return and wiped with spaces when done: no escape sequences, so it
// reads right on any terminal, TERM=dumb included. Nothing is shown for a verification that
// ends within SHOW_AFTER_MS, nor ever into a pipe or a file (stdout, and --json, stay clean).
import { escapeTerminal } from './escape-terminal.js';

/** Milliseconds before the first line: shorter verifications show none. */
export const SHOW_AFTER_MS = 500;
/** Milliseconds between two lines. */
export const EVERY_MS = 200;

/** Reports how far a verification has read; `done` wipes the line. */
export interface Progress {
  /** `read` bytes of the file have been read so far. */
  update(read: number): void;
  /** The verification is over: the line, if one was shown, is wiped. */
  done(): void;
}

const MB = 1e6;

function megabytes(bytes: number): string {
  return Math.floor(bytes / MB).toLocaleString('en');
}

/**
 * Progress of verifying `file` (`total` bytes), written with `write` (stderr). `now` gives
 * milliseconds (performance.now by default; tests pass their own).
 */
export function fileProgress(
  write: (text: string) => void,
  file: string,
  total: number,
  now: () => number = () => performance.now(),
): Progress {
  const started = now();
  let last = -Infinity;
  let shown = 0;
  const name = escapeTerminal(file);
  return {
    update(read) {
      const at = now();
      if (at - started < SHOW_AFTER_MS || at - last < EVERY_MS) return;
      last = at;
      const percent = total > 0 ? Math.min(100, Math.floor((read / total) * 100)) : 100;
      const line = `verifying ${name}: ${megabytes(read)} of ${megabytes(total)} MB (${percent}%)`;
      // Padded to the last line's length, so a shorter line leaves nothing of it behind.
      write(`\r${line.padEnd(shown)}`);
      shown = line.length;
    },
    done() {
      if (shown > 0) write(`\r${' '.repeat(shown)}\r`);
      shown = 0;
    },
  };
}
