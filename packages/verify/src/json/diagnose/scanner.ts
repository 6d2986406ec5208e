// The lexical scanners of the diagnoser: strings and numbers exactly as RFC 8259 §6–7 define
// them, each returning the offset after the token or throwing a Stop that explains the fault.
import { describeChar, endOfInputStop, syntaxStop, where } from './messages.js';

export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Scans the string starting at `i` (a quote); returns the offset after the closing quote. */
export function scanString(text: string, start: number, open: number): number {
  const n = text.length;
  let j = start + 1;
  for (;;) {
    if (j >= n) {
      throw syntaxStop(
        text,
        n,
        'unexpected end of input',
        `expected '"' to close the string that starts ${where(text, start)}`,
      );
    }
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) {
      if (j + 1 >= n) throw endOfInputStop(text, 'an escape sequence', open);
      const e = text.charCodeAt(j + 1);
      if (e === 0x75 /* u */) {
        for (let k = j + 2; k < j + 6; k++) {
          if (k >= n) throw endOfInputStop(text, '4 hexadecimal digits after \\u', open);
          if (!isHex(text.charCodeAt(k))) {
            throw syntaxStop(
              text,
              j,
              'invalid escape sequence in a string',
              `\\u must be followed by 4 hexadecimal digits`,
            );
          }
        }
        j += 6;
      } else if (
        e === 0x22 ||
        e === 0x5c ||
        e === 0x2f ||
        e === 0x62 ||
        e === 0x66 ||
        e === 0x6e ||
        e === 0x72 ||
        e === 0x74
      ) {
        j += 2;
      } else {
        throw syntaxStop(
          text,
          j,
          `invalid escape sequence '\\${text.charAt(j + 1)}' in a string`,
          'allowed are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX',
        );
      }
    } else if (c < 0x20) {
      throw syntaxStop(
        text,
        j,
        `unescaped control character ${describeChar(text, j)} in a string`,
        'write it as an escape such as \\n or \\u001F',
      );
    } else {
      j++;
    }
  }
}

/** Scans the number starting at `i`; returns the offset after it. */
export function scanNumber(text: string, start: number, open: number): number {
  const n = text.length;
  let j = start;
  if (text.charCodeAt(j) === 0x2d) j++;
  if (j >= n) throw endOfInputStop(text, "a digit after '-'", open);
  let c = text.charCodeAt(j);
  if (c === 0x30) {
    j++;
    if (j < n && isDigit(text.charCodeAt(j)))
      throw syntaxStop(text, start, 'invalid number', 'leading zeros are not allowed');
  } else if (isDigit(c)) {
    while (j < n && isDigit(text.charCodeAt(j))) j++;
  } else {
    throw syntaxStop(
      text,
      j,
      `unexpected character ${describeChar(text, j)}`,
      "expected a digit after '-' (JSON has no NaN or Infinity)",
    );
  }
  if (j < n && text.charCodeAt(j) === 0x2e) {
    j++;
    if (j >= n) throw endOfInputStop(text, 'a digit after the decimal point', open);
    if (!isDigit(text.charCodeAt(j)))
      throw syntaxStop(
        text,
        j,
        `unexpected character ${describeChar(text, j)}`,
        'expected a digit after the decimal point',
      );
    while (j < n && isDigit(text.charCodeAt(j))) j++;
  }
  if (j < n && (text.charCodeAt(j) | 0x20) === 0x65 /* e E */) {
    j++;
    if (j < n && ((c = text.charCodeAt(j)) === 0x2b || c === 0x2d)) j++;
    if (j >= n) throw endOfInputStop(text, 'a digit in the exponent', open);
    if (!isDigit(text.charCodeAt(j)))
      throw syntaxStop(
        text,
        j,
        `unexpected character ${describeChar(text, j)}`,
        'expected a digit in the exponent',
      );
    while (j < n && isDigit(text.charCodeAt(j))) j++;
  }
  return j;
}
