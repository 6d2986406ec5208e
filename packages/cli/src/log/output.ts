// Printing a log command's result: one JSON object with --json, else readable lines.
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
export function safe(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    out +=
      code < 0x20 || (code >= 0x7f && code <= 0x9f)
        ? `\\u${code.toString(16).padStart(4, '0')}`
        : c;
  }
  return out;
}

export const hex = (bytes: Uint8Array): string =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
