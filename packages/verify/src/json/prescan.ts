/** Outcome of {@link prescanJson}. */
export type PrescanResult =
  | {
      kind: 'ok';
      /** Number of object members written in the text, duplicates included. */
      members: number;
      /**
       * `true` when the pre-scan proved that no object repeats a member name and that no number
       * can overflow to ±Infinity — provided `JSON.parse` accepts the text. Then the walk over
       * the parsed value can be skipped.
       */
      proven: boolean;
    }
  /** An array/object opens at a depth above the limit (or the text is malformed before that point). */
  | { kind: 'too-deep' }
  /** Something is certainly wrong (unterminated string, more closing than opening brackets). */
  | { kind: 'malformed' };

/**
 * Stretches of a text (verifyJson's events, raw/event-scanner.ts), in ascending order and
 * disjoint. Those flagged `proven` were shown, by a scan that reads the text as valid JSON, to
 * be objects that repeat no member name and hold no out-of-range number (docs/spec.md §6); the
 * pre-scan steps over them.
 */
export interface ProvenSpans {
  readonly count: number;
  /** 1 where the stretch is proven; others are walked as usual. */
  readonly proven: Uint8Array;
  /** Index of each stretch's `{`. */
  readonly starts: Int32Array;
  /** Index just after each stretch's `}`. */
  readonly ends: Int32Array;
  /** Member names written in each stretch, at every depth. */
  readonly names: Int32Array;
  /** Nesting depth of each stretch, the object itself counting 1. */
  readonly depths: Int32Array;
}

/** Objects with more members than this are not checked by fingerprint (quadratic). */
const MAX_FINGERPRINTED_MEMBERS = 32;

/**
 * One linear pass over a JSON text that does not parse it but, assuming the text is valid JSON
 * (callers must only trust the result once `JSON.parse` accepted the same text), finds:
 *
 * - the nesting depth, stopping as soon as it exceeds `maxDepth` — so a deep text never
 *   reaches `JSON.parse` or any recursion;
 * - the number of object members written in the text: in valid JSON every `:` outside strings
 *   follows exactly one member name. If the parsed value holds fewer own keys, a name repeated;
 * - whether duplicates and overflowing numbers are ruled out without looking at the parsed
 *   value (`proven`):
 *   - member names: while no name contains a backslash, two names are equal exactly when their
 *     raw text is. Each name gets a fingerprint of its raw text (length and three characters);
 *     if no two names in one object share a fingerprint, no object repeats a name. Escapes,
 *     shared fingerprints or objects with more than 32 members leave it unproven.
 *   - numbers: a number written with D digits before the decimal point and exponent E is below
 *     10^(D+E), so it cannot overflow when D + E <= 308. Every exponent is checked that way;
 *     a number without exponent needs 309+ digits, which needs a stretch of 309+ characters
 *     without any string, comma, bracket, colon or letter — any such stretch leaves it unproven.
 *
 * String bodies are skipped with `indexOf('"')` (a quote preceded by an odd number of
 * backslashes is escaped). Never throws, whatever the text.
 *
 * A stretch in `spans` that starts at an object's `{` as this pass sees it is stepped over:
 * its depth and member count are taken from `spans`, and it needs no fingerprints or number
 * checks. Should the text not be valid JSON, the stretches may be misplaced, but then
 * `JSON.parse` rejects the text anyway; a proven stretch is at most 513 levels deep (the
 * scanner declines deeper ones), so no deep text reaches `JSON.parse` unchecked.
 *
 * @param text - the JSON text
 * @param maxDepth - deepest nesting accepted (top-level array/object is depth 1)
 * @param spans - stretches to step over (see {@link ProvenSpans})
 */
export function prescanJson(text: string, maxDepth: number, spans?: ProvenSpans): PrescanResult {
  const n = text.length;
  let i = 0;
  let depth = 0;
  let members = 0;
  let proven = true;
  // Last string seen: its content is text[strStart, strEnd).
  let strStart = 0;
  let strEnd = 0;
  // First backslash at or after the start of the last name checked (n: none; -1: not searched).
  let nextBackslash = -1;
  // Fingerprints of the names of all open objects, innermost last. `base` is where the names
  // of the innermost container start in `fingerprints` (-1: it is an array, or none is open);
  // `bases` holds the outer containers' `base`.
  const fingerprints: number[] = [];
  let count = 0;
  let base = -1;
  const bases: number[] = [];
  // End of the last "event" (string, comma, bracket, colon or letter), to spot long digit runs:
  // a number without exponent lies between two events.
  let lastEvent = 0;
  // The next stretch to step over, by index into `spans` and by start (-1: none left).
  let span = 0;
  let spanStart = spans === undefined ? -1 : nextStart(spans, 0);

  while (i < n) {
    const c = text.charCodeAt(i++);
    if (c < 0x3a) {
      // Digits, '-' and '.' (the bulk of what is outside strings): nothing to do.
      if (c > 0x2c) continue;
      if (c === 0x2c /* , */) {
        if (i - lastEvent > 309) proven = false;
        lastEvent = i;
        continue;
      }
      if (c !== 0x22 /* " */) continue; // whitespace, '+', malformed text
      if (i - lastEvent > 309) proven = false;
      let j = text.indexOf('"', i);
      if (j < 0) return { kind: 'malformed' };
      while (text.charCodeAt(j - 1) === 0x5c /* \ */) {
        // Count the backslashes before the quote; the opening quote stops the walk back.
        let k = j - 2;
        while (text.charCodeAt(k) === 0x5c) k--;
        if (((j - 1 - k) & 1) === 0) break;
        j = text.indexOf('"', j + 1);
        if (j < 0) return { kind: 'malformed' };
      }
      strStart = i;
      strEnd = j;
      i = j + 1;
      lastEvent = i;
      continue;
    }
    if (i - lastEvent > 309) proven = false;
    lastEvent = i;
    if (c === 0x3a /* : */) {
      members++;
      if (!proven) continue;
      if (base < 0) {
        proven = false; // a colon outside an object: malformed anyway
        continue;
      }
      if (nextBackslash < strStart) {
        nextBackslash = text.indexOf('\\', strStart);
        if (nextBackslash < 0) nextBackslash = n;
      }
      if (nextBackslash < strEnd || count - base >= MAX_FINGERPRINTED_MEMBERS) {
        proven = false;
        continue;
      }
      // FNV-style mix of the length and the first, middle and last character.
      const len = strEnd - strStart;
      let fp = Math.imul(len, 0x01000193);
      if (len > 0) {
        fp = Math.imul(fp ^ text.charCodeAt(strStart), 0x01000193);
        fp = Math.imul(fp ^ text.charCodeAt(strStart + (len >> 1)), 0x01000193);
        fp = fp ^ text.charCodeAt(strEnd - 1);
      }
      for (let k = base; k < count; k++) {
        if (fingerprints[k] === fp) {
          proven = false;
          break;
        }
      }
      fingerprints[count++] = fp;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (spans !== undefined && spanStart >= 0 && spanStart <= i - 1) {
        // Pass stretches already walked by: events that are no objects, or misplaced ones.
        while (spanStart >= 0 && spanStart < i - 1) spanStart = nextStart(spans, ++span);
        if (spanStart === i - 1) {
          const k = span;
          spanStart = nextStart(spans, ++span);
          if (spans.proven[k] === 1) {
            if (depth + (spans.depths[k] as number) > maxDepth) return { kind: 'too-deep' };
            members += spans.names[k] as number;
            i = spans.ends[k] as number;
            lastEvent = i;
            continue;
          }
        }
      }
      if (++depth > maxDepth) return { kind: 'too-deep' };
      bases.push(base);
      base = c === 0x7b ? count : -1;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (--depth < 0) return { kind: 'malformed' };
      if (base >= 0) count = base;
      base = bases.pop() ?? -1;
    } else if ((c === 0x65 /* e */ || c === 0x45) /* E */ && proven) {
      proven = exponentFits(text, i - 1);
    }
  }
  if (n - lastEvent >= 309) proven = false;
  return { kind: 'ok', members, proven };
}

/** Where stretch `k` starts, or -1 past the last one. */
function nextStart(spans: ProvenSpans, k: number): number {
  return k < spans.count ? (spans.starts[k] as number) : -1;
}

/**
 * For an `e`/`E` at `at`: `false` if it may be the exponent of a number that overflows
 * (digits before the point + exponent > 308), `true` if it certainly is not.
 */
function exponentFits(text: string, at: number): boolean {
  // Digits before the decimal point: walk back over the mantissa.
  let k = at - 1;
  let c = text.charCodeAt(k);
  if (!(c >= 0x30 && c <= 0x39)) return true; // not an exponent (true, false, or malformed)
  let intDigits = 0;
  for (; k >= 0; k--) {
    c = text.charCodeAt(k);
    if (c >= 0x30 && c <= 0x39) intDigits++;
    else if (c === 0x2e /* . */) intDigits = 0;
    else break;
  }
  let j = at + 1;
  c = text.charCodeAt(j);
  if (c === 0x2d /* - */) return intDigits <= 308;
  if (c === 0x2b /* + */) j++;
  let exponent = 0;
  for (; j < text.length; j++) {
    c = text.charCodeAt(j);
    if (!(c >= 0x30 && c <= 0x39)) break;
    exponent = exponent * 10 + (c - 0x30);
    if (exponent > 1000) return false;
  }
  return intDigits + exponent <= 308;
}
