// JSON Pointer changes as the commands print them: one line each, values shortened, and
// record-derived text (paths, values) escaped for the terminal.
import { preview as previewJson, type JsonChange } from '@runback/diff';
import { escapeTerminal } from '@runback/verify-cli';

/** A value shortened to one line, with control and bidi characters shown as escapes. */
export function preview(value: unknown, width: number): string {
  return escapeTerminal(previewJson(value, width));
}

/** How wide a value is shown on one line of output. */
export const VALUE_WIDTH = 72;

/**
 * One line per change: `+ path value`, `- path value`, `~ path before → after`, the first
 * line tagged with `label`; at most `limit` lines.
 */
export function formatChanges(
  label: string,
  list: readonly JsonChange[],
  limit = Infinity,
): string[] {
  const width = Math.max(label.length, 7);
  return list.slice(0, limit).map((c, i) => {
    const tag = (i === 0 ? label : '').padEnd(width);
    const path = c.path === '' ? '(whole value)' : escapeTerminal(c.path);
    if (c.op === 'add') return `    ${tag} + ${path}  ${preview(c.after, VALUE_WIDTH)}`;
    if (c.op === 'remove') return `    ${tag} - ${path}  ${preview(c.before, VALUE_WIDTH)}`;
    return `    ${tag} ~ ${path}  ${preview(c.before, VALUE_WIDTH)} → ${preview(c.after, VALUE_WIDTH)}`;
  });
}
