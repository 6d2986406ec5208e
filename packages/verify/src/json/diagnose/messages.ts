// Wording of the diagnoser's messages: where an offset is, how a character and a place in the
// document are named (RFC 6901 JSON Pointers), and the syntax-error shapes.
import { escapePointerToken } from '@runback/canonical';
import type { JsonReadError } from '../types.js';

/** One open array or object while scanning. */
export interface Frame {
  /** `true` for an object, `false` for an array. */
  readonly isObject: boolean;
  /** Member names seen so far (objects only), after unescaping. */
  readonly keys: Set<string> | null;
  /** JSON Pointer segment of the current child: the member name or the array index. */
  key: string;
  index: number;
}

/** The JSON Pointer of the value the first `frames` open containers lead to. */
export function pointerOf(stack: readonly Frame[], frames: number): string {
  let p = '';
  for (let k = 0; k < frames; k++) {
    const f = stack[k];
    if (f === undefined) break;
    p += '/' + (f.isObject ? escapePointerToken(f.key) : String(f.index));
  }
  return p;
}

/** Line (1-based) and column (1-based, in UTF-16 code units) of an offset. */
export function where(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return `at line ${line}, column ${offset - lineStart + 1} (offset ${offset})`;
}

/** Names the character at `i` for a message: `'x'` for printable ASCII, else `U+XXXX`. */
export function describeChar(text: string, i: number): string {
  const cp = text.codePointAt(i) ?? 0;
  if (cp === 0x27) return `"'"`;
  if (cp > 0x20 && cp < 0x7f) return `'${String.fromCharCode(cp)}'`;
  const u = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  const printable = cp >= 0xa0 && !(cp >= 0xd800 && cp <= 0xdfff) && cp !== 0xfeff;
  return printable ? `${u} '${String.fromCodePoint(cp)}'` : u;
}

/** Shortens a quoted string for a message. */
export function clip(s: string, max = 80): string {
  return s.length <= max ? s : s.slice(0, max) + '…';
}

/** Why scanning stopped early: the error to report. */
export class Stop {
  constructor(readonly error: JsonReadError) {}
}

/** A syntax error: `head at line L, column C (offset N): detail`. */
export function syntaxStop(text: string, offset: number, head: string, detail = ''): Stop {
  return new Stop({
    code: 'JSON_SYNTAX',
    message: `${head} ${where(text, offset)}${detail === '' ? '' : `: ${detail}`}`,
    offset,
  });
}

/** The text ended while `expected` was awaited, with `open` containers still open. */
export function endOfInputStop(text: string, expected: string, open: number): Stop {
  const hint =
    open > 0
      ? ` (the text is truncated or ${open === 1 ? 'an array/object is' : `${open} arrays/objects are`} not closed)`
      : '';
  return syntaxStop(text, text.length, 'unexpected end of input', `expected ${expected}${hint}`);
}
