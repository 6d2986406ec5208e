// JSON Pointer changes as the commands print them: one line each, values shortened.
import type { JsonChange } from '@runback/sdk';

/** A value as short JSON for one line of output. */
export function preview(value: unknown, width = 72): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > width ? `${text.slice(0, width - 3)}...` : text;
}

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
    const path = c.path === '' ? '(whole value)' : c.path;
    if (c.op === 'add') return `    ${tag} + ${path}  ${preview(c.after)}`;
    if (c.op === 'remove') return `    ${tag} - ${path}  ${preview(c.before)}`;
    return `    ${tag} ~ ${path}  ${preview(c.before)} → ${preview(c.after)}`;
  });
}
