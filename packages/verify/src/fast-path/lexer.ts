// Lexical helpers for walking JSON text as if it were valid (what they find is used only once
// `parseJsonStrict` has accepted the text). They do not validate grammar: they only find where
// things end. Each returns -1 when the text is not shaped as expected, so a caller can give up
// instead of looping.

/** Index of the first character at or after `at` that is not JSON whitespace (RFC 8259 §2). */
export function skipWhitespace(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/**
 * Index of the quote closing the string whose content starts at `at` (just after the opening
 * quote), or -1. A quote preceded by an odd number of backslashes is escaped.
 */
export function stringEnd(text: string, at: number): number {
  let j = text.indexOf('"', at);
  while (j > 0 && text.charCodeAt(j - 1) === 0x5c /* \ */) {
    let k = j - 2;
    while (text.charCodeAt(k) === 0x5c) k--;
    if (((j - 1 - k) & 1) === 0) break;
    j = text.indexOf('"', j + 1);
  }
  return j;
}

/** Index just after the JSON value starting at `at`, or -1. */
export function skipValue(text: string, at: number): number {
  const n = text.length;
  const first = text.charCodeAt(at);
  if (first === 0x22 /* " */) {
    const end = stringEnd(text, at + 1);
    return end < 0 ? -1 : end + 1;
  }
  let i = at;
  if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) {
    // A number or a literal runs to the next delimiter or whitespace.
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x2c /* , */ || c === 0x7d /* } */ || c === 0x5d /* ] */ || c <= 0x20) break;
      i++;
    }
    return i > at ? i : -1;
  }
  let depth = 0;
  while (i < n) {
    const c = text.charCodeAt(i++);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end + 1;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
    } else if ((c === 0x7d || c === 0x5d) && --depth === 0) {
      return i;
    }
  }
  return -1;
}

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether `text` holds no lone surrogate. Text decoded from strict UTF-8 never does; text
 * passed in as a string may, and JSON.stringify escapes a lone surrogate rather than writing it
 * raw (docs/spec.md §2, rule 1).
 */
export function isWellFormedText(text: string): boolean {
  // String.prototype.isWellFormed (ES2024) is native; older engines take the expression.
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !LONE_SURROGATE.test(text);
}
