/**
 * Strict, fast reading of JSON records: strict UTF-8, RFC 8259 syntax, no duplicate member
 * names, bounded nesting, finite numbers. Pure: no I/O, no global state, loads in browsers.
 *
 * @packageDocumentation
 */
export {
  decodeJsonInput,
  parseJsonStrict,
  parseJsonStrictSpans,
  readJsonStrict,
  type JsonTextResult,
} from './parse.js';
export type { ProvenSpans } from './prescan.js';
export { decodeUtf8Strict, InvalidUtf8Error } from './utf8.js';
export { DEFAULT_MAX_DEPTH } from './types.js';
export type {
  JsonParseResult,
  JsonReadError,
  JsonReadErrorCode,
  JsonReadOptions,
} from './types.js';
