/**
 * Machine-readable reason a JSON text was rejected.
 *
 * - `JSON_INVALID_UTF8`: the bytes are not well-formed UTF-8.
 * - `JSON_SYNTAX`: the text is not JSON as RFC 8259 defines it.
 * - `JSON_TOO_DEEP`: arrays/objects are nested more than `maxDepth` levels.
 * - `JSON_DUPLICATE_MEMBER`: an object holds the same member name twice (compared after unescaping).
 * - `JSON_NUMBER_OUT_OF_RANGE`: a number is too large to be represented as a finite IEEE 754 double.
 * - `JSON_EMPTY`: the text is empty or holds only JSON whitespace.
 */
export type JsonReadErrorCode =
  | 'JSON_INVALID_UTF8'
  | 'JSON_SYNTAX'
  | 'JSON_TOO_DEEP'
  | 'JSON_DUPLICATE_MEMBER'
  | 'JSON_NUMBER_OUT_OF_RANGE'
  | 'JSON_EMPTY';

/**
 * Why a JSON text was rejected, with where it happened when that is known.
 */
export interface JsonReadError {
  /** Machine-readable reason. */
  code: JsonReadErrorCode;
  /** Human-readable explanation, naming the place (line/column or JSON Pointer) where it helps. */
  message: string;
  /**
   * Where the problem is. For `JSON_INVALID_UTF8`: a byte offset into the input bytes (a leading
   * byte order mark counts). Otherwise: an index in UTF-16 code units into the text that was
   * parsed (after `readJsonStrict` dropped a leading byte order mark, if any).
   */
  offset?: number;
  /**
   * RFC 6901 JSON Pointer: for `JSON_DUPLICATE_MEMBER` the object holding the duplicate
   * (`""` is the top-level value); for `JSON_NUMBER_OUT_OF_RANGE` the number itself; for
   * `JSON_TOO_DEEP` the first array/object that is nested too deep.
   */
  pointer?: string;
}

/**
 * Outcome of reading JSON text: the parsed value, or the reason it was rejected.
 */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: JsonReadError };

/**
 * Options for `parseJsonStrict` and `readJsonStrict`.
 */
export interface JsonReadOptions {
  /**
   * Deepest nesting accepted: the number of arrays/objects enclosing a value, the top-level
   * array/object being depth 1. Default 512. A value that is not a number `>= 0` (for example
   * `NaN` or `-1`) means the default; a fractional value is rounded down.
   */
  maxDepth?: number;
}

/** Nesting limit used when no valid `maxDepth` is given. */
export const DEFAULT_MAX_DEPTH = 512;
