/** Outcome of {@link prescanJson}. */
export type PrescanResult =
  /** Nesting stays within the limit; `members` is the number of object members if the text is valid JSON. */
  | { kind: 'ok'; members: number }
  /** An array/object opens at a depth above the limit (or the text is malformed before that point). */
  | { kind: 'too-deep' }
  /** Something is certainly wrong (unterminated string, more closing than opening brackets). */
  | { kind: 'malformed' };

/**
 * One linear pass over a JSON text that does not parse it, but, assuming the text is valid
 * JSON, measures the two things `JSON.parse` cannot tell afterwards:
 *
 * - the nesting depth (stops as soon as it exceeds `maxDepth`, so a deep text never reaches
 *   `JSON.parse` or any recursion), and
 * - the number of object members in the whole text, written out, duplicates included: in valid
 *   JSON every `:` outside strings separates exactly one member name from its value. If the
 *   parsed value holds fewer own keys in total, some object repeated a member name.
 *
 * String bodies are skipped with `indexOf('"')` (a quote preceded by an odd number of
 * backslashes is escaped). On malformed text the result is meaningless but the function never
 * throws; callers must only trust `members` once `JSON.parse` accepted the same text.
 *
 * @param text - the JSON text
 * @param maxDepth - deepest nesting accepted (top-level array/object is depth 1)
 */
export function prescanJson(text: string, maxDepth: number): PrescanResult {
  const n = text.length;
  let i = 0;
  let depth = 0;
  let members = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = text.indexOf('"', i + 1);
      for (;;) {
        if (j < 0) return { kind: 'malformed' };
        // Count the backslashes right before the quote; the opening quote stops the walk back.
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c /* \ */) k--;
        if (((j - 1 - k) & 1) === 0) break;
        j = text.indexOf('"', j + 1);
      }
      i = j + 1;
    } else if (c === 0x3a /* : */) {
      members++;
      i++;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return { kind: 'too-deep' };
      i++;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (--depth < 0) return { kind: 'malformed' };
      i++;
    } else {
      i++;
    }
  }
  return { kind: 'ok', members };
}
