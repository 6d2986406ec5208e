// One value as a line of text, for messages and reports that show what a change changed.

/** `value` as JSON on one line, cut to `width` characters with `...` when longer. */
export function preview(value: unknown, width = 80): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > width ? `${text.slice(0, width - 3)}...` : text;
}

/** Characters of unchanged text shown before the first difference in {@link previewPair}. */
const LEAD = 24;

/**
 * `before` and `after` previewed side by side so that their difference shows: two strings
 * that differ past what a preview keeps are each cut to a window that opens a little before
 * their first differing character (`"...income is verified and..."`); any other values are
 * previewed as {@link preview} does.
 */
export function previewPair(before: unknown, after: unknown, width = 80): [string, string] {
  const whole: [string, string] = [preview(before, width), preview(after, width)];
  if (typeof before !== 'string' || typeof after !== 'string') return whole;
  // A plain scan, not diffText: jsdiff reads Date.now() while it searches, and this runs inside
  // recorded runs (replay miss messages), where a clock read would be recorded.
  let firstChange = 0;
  const shorter = Math.min(before.length, after.length);
  while (
    firstChange < shorter &&
    before.charCodeAt(firstChange) === after.charCodeAt(firstChange)
  ) {
    firstChange++;
  }
  if (before === after) firstChange = -1;
  // JSON.stringify's escapes only lengthen the text, so this start is conservative.
  if (firstChange === -1 || JSON.stringify(before.slice(0, firstChange)).length < width - LEAD) {
    return whole;
  }
  let from = firstChange - LEAD;
  if (isLowSurrogate(before.charCodeAt(from))) from--;
  const window = (text: string) => {
    const shown = JSON.stringify(text.slice(from)).slice(1);
    return shown.length + 4 > width ? `"...${shown.slice(0, width - 7)}...` : `"...${shown}`;
  };
  return [window(before), window(after)];
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
