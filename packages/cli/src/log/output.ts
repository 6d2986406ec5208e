// Printing a log command's result: one JSON object with --json, else readable lines.
import { escapeTerminal } from '@runback/verify-cli';
import type { CommandIO } from './io.js';

export function printResult(
  io: CommandIO,
  json: boolean,
  result: Record<string, unknown>,
  lines: readonly string[],
): void {
  io.stdout(json ? JSON.stringify(result) + '\n' : lines.join('\n') + '\n');
}

/** Record-derived text for a terminal: control characters escaped so they cannot restyle it. */
export const safe = escapeTerminal;

export const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
