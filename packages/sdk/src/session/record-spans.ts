// Where the parts of a record's JSON text lie, found without parsing it: the value of each
// top-level member and each element of `events`. A replay verifies a record's bytes and then
// parses each event from those same bytes when it needs it (recorder/replay-record.ts), so the
// record is never held parsed whole, and what is served is what was verified.
//
// Only structure is read (RFC 8259 §2: the six structural characters, strings, whitespace). The
// text must be valid JSON (a verified record's is); anything else throws REPLAY_RECORD_INVALID.
// The text is passed to every helper rather than captured in a closure: optimized code may
// embed a closure's context as a constant, which would keep the last record alive.
import { RunbackError } from '../core/errors.js';

/** Where a record's parts lie in its text: [start, end) offsets in UTF-16 code units. */
export interface RecordSpans {
  /** Each top-level member's value. */
  readonly members: ReadonlyMap<string, readonly [number, number]>;
  /** The elements of `events`, as start, end pairs (event i at 2i, 2i + 1); empty without one. */
  readonly events: readonly number[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The spans of a record's top-level members and of its events. */
export function recordSpans(text: string): RecordSpans {
  const members = new Map<string, readonly [number, number]>();
  const events: number[] = [];
  let i = skipSpace(text, skipByteOrderMark(text));
  expect(text, i, OPEN_OBJECT, 'a JSON object');
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return { members, events };
  for (;;) {
    expect(text, i, QUOTE, 'a member name');
    const nameEnd = stringEnd(text, i);
    const name = JSON.parse(text.slice(i, nameEnd)) as string;
    i = skipSpace(text, nameEnd);
    expect(text, i, COLON, '":"');
    const start = skipSpace(text, i + 1);
    // Verified JSON has no duplicate names (verifyJson refuses them); a second one would make
    // "which value" a question, so it is refused here too.
    if (members.has(name)) fail(`a member named ${JSON.stringify(name)} once, got it twice`);
    const end =
      name === 'events' && text.charCodeAt(start) === OPEN_ARRAY
        ? elements(text, start, events)
        : valueEnd(text, start);
    members.set(name, [start, end]);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_OBJECT) break;
    expect(text, i, COMMA, '"," or "}"');
    i = skipSpace(text, i + 1);
  }
  if (skipSpace(text, i + 1) !== text.length) fail('the end of the text after the record');
  return { members, events };
}

/**
 * The text of `name`'s value among the top-level members of the JSON object `text`, or
 * undefined without one. Reads structure only, as recordSpans does.
 */
export function memberText(text: string, name: string): string | undefined {
  let i = skipSpace(text, 0);
  expect(text, i, OPEN_OBJECT, 'a JSON object');
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_OBJECT) return undefined;
  for (;;) {
    expect(text, i, QUOTE, 'a member name');
    const nameEnd = stringEnd(text, i);
    const found = JSON.parse(text.slice(i, nameEnd)) === name;
    i = skipSpace(text, nameEnd);
    expect(text, i, COLON, '":"');
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, start);
    if (found) return text.slice(start, end);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_OBJECT) return undefined;
    expect(text, i, COMMA, '"," or "}"');
    i = skipSpace(text, i + 1);
  }
}

/** The elements of the array at `start`, pushed as span pairs; returns the array's end. */
function elements(text: string, start: number, out: number[]): number {
  let i = skipSpace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_ARRAY) return i + 1;
  for (;;) {
    const end = valueEnd(text, i);
    out.push(i, end);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_ARRAY) return i + 1;
    expect(text, i, COMMA, '"," or "]"');
    i = skipSpace(text, i + 1);
  }
}

/** The end of the JSON value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === QUOTE) {
        j = stringEnd(text, j) - 1;
      } else if (d === OPEN_OBJECT || d === OPEN_ARRAY) {
        depth++;
      } else if (d === CLOSE_OBJECT || d === CLOSE_ARRAY) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    fail('the end of an object or array');
  }
  // A number, true, false or null: it runs up to the next structural character or space.
  let j = i;
  while (j < text.length && !endsScalar(text.charCodeAt(j))) j++;
  if (j === i) fail('a JSON value');
  return j;
}

function endsScalar(c: number): boolean {
  return (
    c === COMMA ||
    c === CLOSE_OBJECT ||
    c === CLOSE_ARRAY ||
    c === 0x20 ||
    c === 0x0a ||
    c === 0x0d ||
    c === 0x09
  );
}

/** The end (past the closing quote) of the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q === -1) fail('the end of a string');
    // The quote is escaped when an odd number of backslashes runs up to it.
    let k = q - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

function skipSpace(text: string, i: number): number {
  let j = i;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return j;
    j++;
  }
}

/** Past a leading byte order mark (U+FEFF), which verifyJson drops too. */
function skipByteOrderMark(text: string): number {
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}

function expect(text: string, i: number, code: number, what: string): void {
  if (text.charCodeAt(i) !== code) {
    const got =
      i >= text.length ? 'the end of the text' : `character ${text.charCodeAt(i)} at ${i}`;
    fail(`${what}, got ${got}`);
  }
}

function fail(message: string): never {
  throw new RunbackError(
    'REPLAY_RECORD_INVALID',
    `reading the record's parts: expected ${message}`,
  );
}
