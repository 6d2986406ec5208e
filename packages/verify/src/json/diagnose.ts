import type { JsonReadError } from './types.js';

/** One open array or object while scanning. */
interface Frame {
  /** `true` for an object, `false` for an array. */
  readonly isObject: boolean;
  /** Member names seen so far (objects only), after unescaping. */
  readonly keys: Set<string> | null;
  /** JSON Pointer segment of the current child: the member name or the array index. */
  key: string;
  index: number;
}

// Scanner states.
const EXPECT_VALUE = 0; // after ':' or ',' in an array, or at the start
const EXPECT_VALUE_OR_CLOSE = 1; // right after '['
const EXPECT_NAME = 2; // after ',' in an object
const EXPECT_NAME_OR_CLOSE = 3; // right after '{'
const EXPECT_COLON = 4; // after a member name
const AFTER_VALUE = 5; // after a complete value

/** Escapes one JSON Pointer reference token (RFC 6901). */
function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointerOf(stack: readonly Frame[], frames: number): string {
  let p = '';
  for (let k = 0; k < frames; k++) {
    const f = stack[k];
    if (f === undefined) break;
    p += '/' + (f.isObject ? escapeToken(f.key) : String(f.index));
  }
  return p;
}

/** Line (1-based) and column (1-based, in UTF-16 code units) of an offset. */
function where(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return `at line ${line}, column ${offset - lineStart + 1} (offset ${offset})`;
}

/** Names the character at `i` for a message: `'x'` for printable ASCII, else `U+XXXX`. */
function describeChar(text: string, i: number): string {
  const cp = text.codePointAt(i) ?? 0;
  if (cp === 0x27) return `"'"`;
  if (cp > 0x20 && cp < 0x7f) return `'${String.fromCharCode(cp)}'`;
  const u = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  const printable = cp >= 0xa0 && !(cp >= 0xd800 && cp <= 0xdfff) && cp !== 0xfeff;
  return printable ? `${u} '${String.fromCodePoint(cp)}'` : u;
}

/** Shortens a quoted string for a message. */
function clip(s: string, max = 80): string {
  return s.length <= max ? s : s.slice(0, max) + '…';
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

class Stop {
  constructor(readonly error: JsonReadError) {}
}

/**
 * Exact, non-recursive RFC 8259 scanner that explains why a text is not acceptable. Slow
 * compared with `JSON.parse` (it keeps a set of member names per open object), so it only runs
 * once the fast path found a problem.
 *
 * Precedence: a syntax error or excessive nesting, whichever comes first in the text, wins;
 * otherwise the first duplicate member name or out-of-range number in text order.
 *
 * @param text - the JSON text (a leading byte order mark is not skipped)
 * @param maxDepth - deepest nesting accepted (top-level array/object is depth 1)
 * @returns the error, or `undefined` if the text is acceptable
 */
export function diagnoseJson(text: string, maxDepth: number): JsonReadError | undefined {
  const n = text.length;
  const stack: Frame[] = [];
  let state = EXPECT_VALUE;
  let i = 0;
  let semantic: JsonReadError | undefined;

  /** A syntax error: `head at line L, column C (offset N): detail`. */
  const syntax = (offset: number, head: string, detail = ''): Stop =>
    new Stop({
      code: 'JSON_SYNTAX',
      message: `${head} ${where(text, offset)}${detail === '' ? '' : `: ${detail}`}`,
      offset,
    });
  const endOfInput = (expected: string): Stop => {
    const open = stack.length;
    const hint =
      open > 0
        ? ` (the text is truncated or ${open === 1 ? 'an array/object is' : `${open} arrays/objects are`} not closed)`
        : '';
    return syntax(n, 'unexpected end of input', `expected ${expected}${hint}`);
  };
  const unexpected = (expected: string, hint = ''): Stop =>
    syntax(i, `unexpected character ${describeChar(text, i)}`, `expected ${expected}${hint}`);

  /** Scans the string starting at `i` (a quote); returns the offset after the closing quote. */
  const scanString = (start: number): number => {
    let j = start + 1;
    for (;;) {
      if (j >= n) {
        throw syntax(
          n,
          'unexpected end of input',
          `expected '"' to close the string that starts ${where(text, start)}`,
        );
      }
      const c = text.charCodeAt(j);
      if (c === 0x22) return j + 1;
      if (c === 0x5c) {
        if (j + 1 >= n) throw endOfInput('an escape sequence');
        const e = text.charCodeAt(j + 1);
        if (e === 0x75 /* u */) {
          for (let k = j + 2; k < j + 6; k++) {
            if (k >= n) throw endOfInput('4 hexadecimal digits after \\u');
            if (!isHex(text.charCodeAt(k))) {
              throw syntax(
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
          throw syntax(
            j,
            `invalid escape sequence '\\${text.charAt(j + 1)}' in a string`,
            'allowed are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX',
          );
        }
      } else if (c < 0x20) {
        throw syntax(
          j,
          `unescaped control character ${describeChar(text, j)} in a string`,
          'write it as an escape such as \\n or \\u001F',
        );
      } else {
        j++;
      }
    }
  };

  /** Scans the number starting at `i`; returns the offset after it. */
  const scanNumber = (start: number): number => {
    let j = start;
    if (text.charCodeAt(j) === 0x2d) j++;
    if (j >= n) throw endOfInput("a digit after '-'");
    let c = text.charCodeAt(j);
    if (c === 0x30) {
      j++;
      if (j < n && isDigit(text.charCodeAt(j)))
        throw syntax(start, 'invalid number', 'leading zeros are not allowed');
    } else if (isDigit(c)) {
      while (j < n && isDigit(text.charCodeAt(j))) j++;
    } else {
      throw syntax(
        j,
        `unexpected character ${describeChar(text, j)}`,
        "expected a digit after '-' (JSON has no NaN or Infinity)",
      );
    }
    if (j < n && text.charCodeAt(j) === 0x2e) {
      j++;
      if (j >= n) throw endOfInput('a digit after the decimal point');
      if (!isDigit(text.charCodeAt(j)))
        throw syntax(
          j,
          `unexpected character ${describeChar(text, j)}`,
          'expected a digit after the decimal point',
        );
      while (j < n && isDigit(text.charCodeAt(j))) j++;
    }
    if (j < n && (text.charCodeAt(j) | 0x20) === 0x65 /* e E */) {
      j++;
      if (j < n && ((c = text.charCodeAt(j)) === 0x2b || c === 0x2d)) j++;
      if (j >= n) throw endOfInput('a digit in the exponent');
      if (!isDigit(text.charCodeAt(j)))
        throw syntax(
          j,
          `unexpected character ${describeChar(text, j)}`,
          'expected a digit in the exponent',
        );
      while (j < n && isDigit(text.charCodeAt(j))) j++;
    }
    return j;
  };

  const openContainer = (isObject: boolean): void => {
    if (stack.length + 1 > maxDepth) {
      throw new Stop({
        code: 'JSON_TOO_DEEP',
        message: `nesting too deep ${where(text, i)}: more than ${maxDepth} nested arrays/objects`,
        offset: i,
        pointer: pointerOf(stack, stack.length),
      });
    }
    stack.push({ isObject, keys: isObject ? new Set<string>() : null, key: '', index: 0 });
    state = isObject ? EXPECT_NAME_OR_CLOSE : EXPECT_VALUE_OR_CLOSE;
    i++;
  };

  const close = (): void => {
    stack.pop();
    state = AFTER_VALUE;
    i++;
  };

  const scanValue = (): void => {
    const c = text.charCodeAt(i);
    if (c === 0x7b) return openContainer(true);
    if (c === 0x5b) return openContainer(false);
    if (c === 0x22) {
      i = scanString(i);
      state = AFTER_VALUE;
      return;
    }
    if (c === 0x2d || isDigit(c)) {
      const end = scanNumber(i);
      if (semantic === undefined && !Number.isFinite(Number(text.slice(i, end)))) {
        const pointer = pointerOf(stack, stack.length);
        semantic = {
          code: 'JSON_NUMBER_OUT_OF_RANGE',
          message:
            `number ${clip(text.slice(i, end), 40)} ${pointer === '' ? 'at the top level' : `at ${pointer}`} is out of range ` +
            '(it would overflow to Infinity; the largest finite number is about 1.7976931348623157e308)',
          offset: i,
          pointer,
        };
      }
      i = end;
      state = AFTER_VALUE;
      return;
    }
    for (const lit of ['true', 'false', 'null']) {
      if (c === lit.charCodeAt(0)) {
        let m = 1;
        while (m < lit.length && i + m < n && text.charCodeAt(i + m) === lit.charCodeAt(m)) m++;
        if (m === lit.length) {
          i += m;
          state = AFTER_VALUE;
          return;
        }
        if (i + m >= n) throw endOfInput(`'${lit}'`);
        throw syntax(
          i + m,
          `unexpected character ${describeChar(text, i + m)}`,
          `expected '${lit}'`,
        );
      }
    }
    let hint = '';
    if (
      text.startsWith('NaN', i) ||
      text.startsWith('Infinity', i) ||
      text.startsWith('undefined', i)
    ) {
      hint = ' (JSON has no NaN, Infinity or undefined)';
    } else if (c === 0x27) hint = ' (JSON strings use double quotes)';
    else if (c === 0x2b) hint = " (numbers must not start with '+')";
    else if (c === 0x2e) hint = ' (numbers must start with a digit)';
    else if (c === 0x2f) hint = ' (JSON has no comments)';
    else if (c === 0xfeff)
      hint = ' (a byte order mark is only dropped at the very start, by readJsonStrict)';
    else if (c === 0x5d && state === EXPECT_VALUE && stack.length > 0)
      hint = ' (trailing commas are not allowed)';
    throw unexpected('a value', hint);
  };

  try {
    for (;;) {
      // Skip JSON whitespace.
      let c = text.charCodeAt(i);
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++i);
      if (i >= n) {
        if (state === AFTER_VALUE && stack.length === 0) return semantic;
        if (state === EXPECT_VALUE && stack.length === 0) {
          // Still waiting for the top-level value: the text is nothing but whitespace.
          return { code: 'JSON_EMPTY', message: 'empty input: expected a JSON value', offset: 0 };
        }
        const top = stack[stack.length - 1];
        switch (state) {
          case EXPECT_VALUE:
            throw endOfInput('a value');
          case EXPECT_VALUE_OR_CLOSE:
            throw endOfInput("a value or ']'");
          case EXPECT_NAME:
            throw endOfInput('a member name');
          case EXPECT_NAME_OR_CLOSE:
            throw endOfInput("a member name or '}'");
          case EXPECT_COLON:
            throw endOfInput("':'");
          default:
            throw endOfInput(top?.isObject === true ? "',' or '}'" : "',' or ']'");
        }
      }
      switch (state) {
        case EXPECT_VALUE_OR_CLOSE:
          if (c === 0x5d) {
            close();
            break;
          }
          scanValue();
          break;
        case EXPECT_VALUE:
          scanValue();
          break;
        case EXPECT_NAME_OR_CLOSE:
        case EXPECT_NAME: {
          if (c === 0x7d && state === EXPECT_NAME_OR_CLOSE) {
            close();
            break;
          }
          if (c !== 0x22) {
            let hint = '';
            if (c === 0x27) hint = ' (JSON strings use double quotes)';
            else if (c === 0x7d) hint = ' (trailing commas are not allowed)';
            else if (c === 0x2f) hint = ' (JSON has no comments)';
            else if (/[A-Za-z_$]/.test(text.charAt(i)))
              hint = ' (member names must be in double quotes)';
            throw unexpected(
              state === EXPECT_NAME
                ? 'a member name in double quotes'
                : "a member name in double quotes or '}'",
              hint,
            );
          }
          const start = i;
          const end = scanString(i);
          const raw = text.slice(start + 1, end - 1);
          const name = raw.indexOf('\\') < 0 ? raw : (JSON.parse(text.slice(start, end)) as string);
          const top = stack[stack.length - 1];
          if (top?.keys != null) {
            if (top.keys.has(name)) {
              if (semantic === undefined) {
                const pointer = pointerOf(stack, stack.length - 1);
                semantic = {
                  code: 'JSON_DUPLICATE_MEMBER',
                  message:
                    `duplicate member name ${clip(JSON.stringify(name))} in ${pointer === '' ? 'the top-level object' : pointer} ` +
                    '(expected each member name once per object)',
                  offset: start,
                  pointer,
                };
              }
            } else {
              top.keys.add(name);
            }
            top.key = name;
          }
          i = end;
          state = EXPECT_COLON;
          break;
        }
        case EXPECT_COLON:
          if (c !== 0x3a) throw unexpected("':' after the member name");
          i++;
          state = EXPECT_VALUE;
          break;
        default: {
          // AFTER_VALUE
          const top = stack[stack.length - 1];
          if (top === undefined) {
            throw syntax(
              i,
              `unexpected character ${describeChar(text, i)} after the JSON value`,
              'expected the end of input',
            );
          }
          if (c === 0x2c) {
            i++;
            if (top.isObject) state = EXPECT_NAME;
            else {
              top.index++;
              state = EXPECT_VALUE;
            }
          } else if (c === (top.isObject ? 0x7d : 0x5d)) {
            close();
          } else {
            throw unexpected(top.isObject ? "',' or '}'" : "',' or ']'");
          }
        }
      }
    }
  } catch (e) {
    if (e instanceof Stop) return e.error;
    throw e;
  }
}
