import { diagnoseJson } from './diagnose/index.js';
import { prescanJson, type ProvenSpans } from './prescan.js';
import { DEFAULT_MAX_DEPTH } from './types.js';
import type { JsonParseResult, JsonReadError, JsonReadOptions } from './types.js';
import { decodeUtf8Strict, InvalidUtf8Error } from './utf8.js';

const fail = (error: JsonReadError): JsonParseResult => ({ ok: false, error });

function resolveMaxDepth(options: JsonReadOptions | undefined): number {
  const d = options?.maxDepth;
  return typeof d === 'number' && d >= 0 ? Math.floor(d) : DEFAULT_MAX_DEPTH;
}

/** `true` if something made a property of `Object.prototype` enumerable (so `for…in` would see it). */
function objectPrototypeIsPolluted(): boolean {
  for (const _key in Object.prototype) return true;
  return false;
}

/**
 * Walks a value produced by `JSON.parse` without recursion. Returns the total number of own
 * keys of all objects, or -1 as soon as a number is not finite. `for…in` is about 4× faster
 * than `Object.keys`/`Object.values` here (no array per object); it would also count enumerable
 * properties inherited from a polluted `Object.prototype`, so `ownOnly` switches to
 * `Object.keys` in that case.
 */
function countKeys(root: unknown, ownOnly: boolean): number {
  if (typeof root !== 'object' || root === null) {
    return typeof root === 'number' && !Number.isFinite(root) ? -1 : 0;
  }
  let keys = 0;
  const stack: object[] = [root];
  let v: object | undefined;
  while ((v = stack.pop()) !== undefined) {
    if (Array.isArray(v)) {
      const items: unknown[] = v;
      for (let k = 0; k < items.length; k++) {
        const e = items[k];
        if (typeof e === 'object') {
          if (e !== null) stack.push(e);
        } else if (typeof e === 'number' && e - e !== 0) {
          return -1; // ±Infinity (or NaN, which JSON.parse never produces)
        }
      }
    } else if (!ownOnly) {
      const o = v as Record<string, unknown>;
      for (const key in o) {
        keys++;
        const e = o[key];
        if (typeof e === 'object') {
          if (e !== null) stack.push(e);
        } else if (typeof e === 'number' && e - e !== 0) {
          return -1;
        }
      }
    } else {
      const o = v as Record<string, unknown>;
      const names = Object.keys(o);
      keys += names.length;
      for (let k = 0; k < names.length; k++) {
        const e = o[names[k] as string];
        if (typeof e === 'object') {
          if (e !== null) stack.push(e);
        } else if (typeof e === 'number' && e - e !== 0) {
          return -1;
        }
      }
    }
  }
  return keys;
}

/**
 * Parses a JSON text strictly, for records whose hash or signature must mean exactly one
 * value. On top of RFC 8259 syntax (checked by `JSON.parse`) it rejects:
 *
 * - an empty or whitespace-only text (`JSON_EMPTY`);
 * - nesting deeper than `maxDepth` (default 512; the top-level array/object is depth 1),
 *   found before `JSON.parse` runs and without recursion (`JSON_TOO_DEEP`);
 * - a member name repeated in one object, compared after unescaping, so `{"a":1,"\u0061":2}`
 *   is rejected (`JSON_DUPLICATE_MEMBER`, as I-JSON / RFC 7493 and RFC 8785 require);
 * - a number that `JSON.parse` would turn into ±Infinity, such as `1e400`
 *   (`JSON_NUMBER_OUT_OF_RANGE`). Integers that merely lose precision are accepted.
 *
 * Kept as `JSON.parse` has them: `__proto__` is an ordinary own data member (never a
 * prototype), and lone surrogate escapes such as `"\ud800"` stay lone surrogates. A leading
 * byte order mark is not dropped here (see `readJsonStrict`).
 *
 * Fast path: one linear pre-scan (depth, member count, and usually a proof that no name repeats
 * and no number overflows), then `JSON.parse`; only without that proof, one iterative walk of
 * the parsed value (own key count, finite numbers). Only if something is wrong does a slower
 * exact scanner run to name the place. If several things are wrong, a syntax error or excessive nesting
 * (whichever comes first) is reported before duplicates and out-of-range numbers.
 *
 * Never throws, whatever the input.
 *
 * @param text - the JSON text
 * @param options - `maxDepth`: deepest nesting accepted (default 512)
 * @returns `{ ok: true, value }` or `{ ok: false, error }`
 */
export function parseJsonStrict(text: string, options?: JsonReadOptions): JsonParseResult {
  return parseJsonStrictSpans(text, options, undefined);
}

/**
 * parseJsonStrict, with stretches of the text already proven free of duplicate names and
 * out-of-range numbers (verifyJson's canonical events), which the pre-scan steps over instead
 * of walking them a second time. Same result as parseJsonStrict for every text.
 */
export function parseJsonStrictSpans(
  text: string,
  options: JsonReadOptions | undefined,
  spans: ProvenSpans | undefined,
): JsonParseResult {
  try {
    if (typeof text !== 'string') {
      return fail({
        code: 'JSON_SYNTAX',
        message: `expected JSON text as a string, got ${typeof text}`,
      });
    }
    const maxDepth = resolveMaxDepth(options);
    const scan = prescanJson(text, maxDepth, spans);
    if (scan.kind !== 'ok') {
      const error = diagnoseJson(text, maxDepth);
      if (error !== undefined) return fail(error);
      if (scan.kind === 'too-deep') {
        // Unreachable unless the two scanners disagree: fail closed.
        return fail({
          code: 'JSON_TOO_DEEP',
          message: `nesting too deep: more than ${maxDepth} nested arrays/objects`,
        });
      }
      // The exact scanner accepted the text (duplicates and numbers included): parse it below.
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const error = diagnoseJson(text, maxDepth);
      if (error !== undefined) return fail(error);
      const detail = e instanceof Error ? e.message : String(e);
      return fail({ code: 'JSON_SYNTAX', message: `invalid JSON: ${detail}` });
    }
    if (scan.kind === 'ok' && !scan.proven) {
      const keys = countKeys(value, objectPrototypeIsPolluted());
      if (keys !== scan.members) {
        const error = diagnoseJson(text, maxDepth);
        if (error !== undefined) return fail(error);
        // Unreachable unless the scanners disagree: fail closed.
        return fail({
          code: keys < 0 ? 'JSON_NUMBER_OUT_OF_RANGE' : 'JSON_DUPLICATE_MEMBER',
          message: keys < 0 ? 'a number is out of range' : 'an object repeats a member name',
        });
      }
    }
    return { ok: true, value };
  } catch (e) {
    // Last resort (for example out of memory): still never throw.
    const detail = e instanceof Error ? e.message : String(e);
    return fail({ code: 'JSON_SYNTAX', message: `could not read the JSON text: ${detail}` });
  }
}

/**
 * Reads JSON from text or bytes, strictly: bytes are decoded with `decodeUtf8Strict`
 * (ill-formed UTF-8 gives a `JSON_INVALID_UTF8` error naming the byte offset), one leading
 * byte order mark is dropped (U+FEFF for text, EF BB BF for bytes), then the text goes through
 * `parseJsonStrict`. Error offsets other than `JSON_INVALID_UTF8` index the text after the
 * byte order mark was dropped.
 *
 * Never throws, whatever the input.
 *
 * @param input - JSON text, or its UTF-8 encoding (any `Uint8Array`, `Buffer` included)
 * @param options - `maxDepth`: deepest nesting accepted (default 512)
 * @returns `{ ok: true, value }` or `{ ok: false, error }`
 */
export function readJsonStrict(
  input: string | Uint8Array,
  options?: JsonReadOptions,
): JsonParseResult {
  const decoded = decodeJsonInput(input);
  return decoded.ok ? parseJsonStrict(decoded.text, options) : decoded;
}

/** The text `readJsonStrict` parses, or why there is none. */
export type JsonTextResult = { ok: true; text: string } | { ok: false; error: JsonReadError };

/**
 * The first half of `readJsonStrict`: strict UTF-8 decoding of bytes and one leading byte
 * order mark dropped. `verifyJson` keeps the text, whose canonical stretches it hashes as they
 * are. Never throws, whatever the input.
 */
export function decodeJsonInput(input: string | Uint8Array): JsonTextResult {
  try {
    if (typeof input === 'string') {
      return { ok: true, text: input.charCodeAt(0) === 0xfeff ? input.slice(1) : input };
    }
    if (
      input instanceof Uint8Array ||
      Object.prototype.toString.call(input) === '[object Uint8Array]'
    ) {
      // (The second test accepts a Uint8Array from another realm, e.g. a worker or iframe.)
      try {
        return { ok: true, text: decodeUtf8Strict(input) };
      } catch (e) {
        if (e instanceof InvalidUtf8Error) {
          return {
            ok: false,
            error: { code: 'JSON_INVALID_UTF8', message: e.message, offset: e.offset },
          };
        }
        throw e;
      }
    }
    return {
      ok: false,
      error: {
        code: 'JSON_SYNTAX',
        message: `expected JSON text as a string or Uint8Array, got ${input === null ? 'null' : typeof input}`,
      },
    };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: { code: 'JSON_SYNTAX', message: `could not read the JSON text: ${detail}` },
    };
  }
}
