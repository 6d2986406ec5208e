// Terminal styling: ANSI colour on a terminal only, never with NO_COLOR (https://no-color.org).
import type { CommandIO } from './io.js';

/** ANSI styling that collapses to plain text when colour is off. */
export interface Style {
  readonly green: (s: string) => string;
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
}

/** A style that colours with ANSI escapes, or one that leaves text alone. */
export function makeStyle(color: boolean): Style {
  const wrap = (open: number, close: number) => (s: string) =>
    color ? `\u001b[${open}m${s}\u001b[${close}m` : s;
  return {
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    bold: wrap(1, 22),
    dim: wrap(2, 22),
  };
}

/**
 * Whether to colour output: NO_COLOR (non-empty) wins, then FORCE_COLOR (anything but "0"),
 * else only on a terminal that is not TERM=dumb.
 */
export function useColor(io: Pick<CommandIO, 'isTTY' | 'env'>): boolean {
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  return io.isTTY && io.env['TERM'] !== 'dumb';
}
