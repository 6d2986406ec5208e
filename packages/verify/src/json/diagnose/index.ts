// Explains why a JSON text is not acceptable (docs/spec.md §6): the first syntax error or
// excess nesting, else the first duplicate member name or out-of-range number.
import type { JsonReadError } from '../types.js';
import {
  clip,
  describeChar,
  endOfInputStop,
  pointerOf,
  Stop,
  syntaxStop,
  where,
  type Frame,
} from './messages.js';
import { isDigit, scanNumber, scanString } from './scanner.js';

// Scanner states.
const EXPECT_VALUE = 0; // after ':' or ',' in an array, or at the start
const EXPECT_VALUE_OR_CLOSE = 1; // right after '['
const EXPECT_NAME = 2; // after ',' in an object
const EXPECT_NAME_OR_CLOSE = 3; // right after '{'
const EXPECT_COLON = 4; // after a member name
const AFTER_VALUE = 5; // after a complete value

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

  const syntax = (offset: number, head: string, detail = ''): Stop =>
    syntaxStop(text, offset, head, detail);
  const endOfInput = (expected: string): Stop => endOfInputStop(text, expected, stack.length);
  const unexpected = (expected: string, hint = ''): Stop =>
    syntax(i, `unexpected character ${describeChar(text, i)}`, `expected ${expected}${hint}`);

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
      i = scanString(text, i, stack.length);
      state = AFTER_VALUE;
      return;
    }
    if (c === 0x2d || isDigit(c)) {
      const end = scanNumber(text, i, stack.length);
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
          const end = scanString(text, i, stack.length);
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
