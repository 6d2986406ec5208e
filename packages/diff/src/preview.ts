// One value as a line of text, for messages and reports that show what a change changed.

/** `value` as JSON on one line, cut to `width` characters with `...` when longer. */
export function preview(value: unknown, width = 80): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > width ? `${text.slice(0, width - 3)}...` : text;
}
