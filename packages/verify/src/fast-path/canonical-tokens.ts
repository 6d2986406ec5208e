// Token-level checks of the canonical form (docs/spec.md §2): whether a member name sorts
// after the previous one, a number is written as Number::toString writes it, and a \u escape
// is one JSON.stringify writes. Each looks at JSON text in place, allocating nothing on the
// common path.

/** Numbers with at most this many digits and no fraction or exponent print as written. */
const PLAIN_INTEGER_DIGITS = 15;

/** Whether the name text[bs, be) sorts strictly after text[as, ae), by UTF-16 code units. */
export function sortsAfter(text: string, as: number, ae: number, bs: number, be: number): boolean {
  return compareSpans(text, as, ae, bs, be) < 0;
}

/** Sign of text[as, ae) compared with text[bs, be) by UTF-16 code units. */
export function compareSpans(text: string, as: number, ae: number, bs: number, be: number): number {
  const la = ae - as;
  const lb = be - bs;
  const m = la < lb ? la : lb;
  for (let d = 0; d < m; d++) {
    const x = text.charCodeAt(as + d);
    const y = text.charCodeAt(bs + d);
    if (x !== y) return x - y;
  }
  return la - lb;
}

/**
 * Code unit i of `text`, read from `ascii` when given: the text's bytes when it is ASCII (index
 * for index), which are cheaper to read than the string's code units. Past the end it is NaN or
 * undefined, which no comparison with a code unit matches.
 */
export function unitAt(text: string, ascii: Uint8Array | undefined, i: number): number {
  return ascii !== undefined ? (ascii[i] as number) : text.charCodeAt(i);
}

/** compareSpans, reading `ascii` (the text's bytes when it is ASCII) when given. */
export function compareNameSpans(
  text: string,
  ascii: Uint8Array | undefined,
  as: number,
  ae: number,
  bs: number,
  be: number,
): number {
  if (ascii === undefined) return compareSpans(text, as, ae, bs, be);
  const la = ae - as;
  const lb = be - bs;
  const m = la < lb ? la : lb;
  for (let d = 0; d < m; d++) {
    const x = ascii[as + d] as number;
    const y = ascii[bs + d] as number;
    if (x !== y) return x - y;
  }
  return la - lb;
}

/**
 * Index just after the number starting at `at` when it is written as Number::toString writes
 * it (docs/spec.md §2, rule 2), else -1.
 */
export function canonicalNumberEnd(text: string, at: number): number {
  let i = at;
  let plain = true;
  for (;;) {
    const d = text.charCodeAt(i);
    if (d >= 0x30 && d <= 0x39) i++;
    else if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) {
      // A fraction or an exponent (. e E + -); a minus in first place is just the sign.
      if (i > at || d !== 0x2d) plain = false;
      i++;
    } else break;
  }
  const negative = text.charCodeAt(at) === 0x2d ? 1 : 0;
  const digits = i - at - negative;
  const leadingZero = text.charCodeAt(at + negative) === 0x30;
  // A plain integer of up to 15 digits is exact and prints as written, unless it is -0 (which
  // prints as 0); everything else is decided by printing it.
  if (plain && digits <= PLAIN_INTEGER_DIGITS && !(leadingZero && (negative === 1 || digits > 1)))
    return i;
  const token = text.slice(at, i);
  return String(Number(token)) === token ? i : -1;
}

/** Whether text[at, end) is a number in the grammar of RFC 8259 §6. */
export function isJsonNumber(text: string, at: number, end: number): boolean {
  let i = at;
  if (text.charCodeAt(i) === 0x2d /* - */) i++;
  // int: 0, or a digit 1-9 and more digits.
  const first = i;
  if (text.charCodeAt(i) === 0x30) i++;
  else while (i < end && isDigit(text.charCodeAt(i))) i++;
  if (i === first) return false;
  // frac: a point and at least one digit.
  if (i < end && text.charCodeAt(i) === 0x2e /* . */) {
    const digits = ++i;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
    if (i === digits) return false;
  }
  // exp: e or E, a sign or none, and at least one digit.
  if (i < end && (text.charCodeAt(i) | 0x20) === 0x65 /* e */) {
    i++;
    const sign = text.charCodeAt(i);
    if (i < end && (sign === 0x2b /* + */ || sign === 0x2d)) i++;
    const digits = i;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
    if (i === digits) return false;
  }
  return i === end;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Whether the four hex digits at `at` (after `\u`) are how JSON.stringify escapes a character:
 * only control characters without a short escape, in lowercase (`\u001f`, never `\u001F`).
 */
export function isStringifyUnicodeEscape(text: string, at: number): boolean {
  if (text.charCodeAt(at) !== 0x30 || text.charCodeAt(at + 1) !== 0x30) return false;
  const high = text.charCodeAt(at + 2);
  if (high !== 0x30 && high !== 0x31) return false;
  const low = text.charCodeAt(at + 3);
  let value: number;
  if (low >= 0x30 && low <= 0x39) value = low - 0x30;
  else if (low >= 0x61 && low <= 0x66) value = low - 0x61 + 10;
  else return false;
  value += (high - 0x30) * 16;
  // \b \t \n \f \r have short escapes, which JSON.stringify uses instead.
  return value !== 0x08 && value !== 0x09 && value !== 0x0a && value !== 0x0c && value !== 0x0d;
}

/** Significant digits that every decimal of at most this many gets back from a double. */
const EXACT_DECIMAL_DIGITS = 15;

/**
 * Whether text[at, end), a number token without its sign, is a decimal fraction written as
 * Number::toString writes it (docs/spec.md §2, rule 2), decided without printing it: an
 * integer part without a leading zero, or 0 before a fraction whose first digit is not 0 (so
 * the value is at least 0.1 and prints without an exponent), a point, digits not ending in 0,
 * and at most 15 significant digits. A decimal of at most 15 significant digits is the only
 * one of that length the nearest double reads back to (IEEE 754 binary64 holds 15 decimal
 * digits exactly), so it is that double's shortest form, which is what Number::toString prints.
 * False says nothing: the caller then prints the number.
 */
export function isShortDecimal(text: string, at: number, end: number): boolean {
  let i = at;
  let significant = 0;
  if (text.charCodeAt(i) === 0x30 /* 0 */) {
    i++;
    if (text.charCodeAt(i) !== 0x2e /* . */ || text.charCodeAt(i + 1) === 0x30) return false;
  } else {
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      significant++;
    }
    if (significant === 0 || text.charCodeAt(i) !== 0x2e) return false;
  }
  const fraction = ++i;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false; // an exponent
  }
  if (end === fraction || text.charCodeAt(end - 1) === 0x30) return false;
  return significant + (end - fraction) <= EXACT_DECIMAL_DIGITS;
}
