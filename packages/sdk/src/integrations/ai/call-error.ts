// AI SDK errors across a replay. The event stores an error as `{name, message, stack?}`, which is
// not enough for the AI SDK to treat a replayed failure as it treated the recorded one: its retry
// loop retries an APICallError only when `isRetryable` is true, and agents branch on
// `statusCode`. So a failed call also keeps those facts in its metadata (named as the
// provider-aware fetch capture names them), and a replay puts them back on the error it throws,
// with the AI SDK's error markers, so that `APICallError.isInstance` holds as it did.
//
// Nothing here imports the AI SDK (an optional peer): its errors are recognised and rebuilt by
// their documented markers, `Symbol.for('vercel.ai.error')` and
// `Symbol.for('vercel.ai.error.' + name)`.
import { replayedError } from '../../session/serve.js';
import { toJson } from './json.js';
import { isObject } from '../../core/values.js';

const AI_SDK_MARKER = 'vercel.ai.error';
const API_CALL_ERROR = 'AI_APICallError';
/** The only response headers kept: the AI SDK reads them to time its retries. */
const RETRY_HEADERS = ['retry-after', 'retry-after-ms'] as const;

/**
 * The metadata a failed call keeps about an AI SDK APICallError: `http_status`, `retryable`,
 * `error_body` (the response body as text), `error_data` (the provider's parsed error) and
 * `retry_after` (the retry headers). Not the URL, the request body or the other response
 * headers: they repeat the request or can carry credentials and account ids. Undefined for any
 * other error.
 */
export function errorMetadataOf(err: unknown): Record<string, unknown> | undefined {
  if (!hasMarker(err, `${AI_SDK_MARKER}.${API_CALL_ERROR}`)) return undefined;
  const { statusCode, isRetryable, responseBody, data, responseHeaders } = err as Record<
    string,
    unknown
  >;
  const retryAfter = retryHeadersOf(responseHeaders);
  const detail: Record<string, unknown> = {
    http_status: typeof statusCode === 'number' ? statusCode : undefined,
    retryable: typeof isRetryable === 'boolean' ? isRetryable : undefined,
    error_body: typeof responseBody === 'string' ? responseBody : undefined,
    error_data: toJson(data, 'AI SDK error data'),
    retry_after: retryAfter,
  };
  return Object.fromEntries(Object.entries(detail).filter(([, value]) => value !== undefined));
}

/**
 * Makes a recorded error (an Error with the recorded name, message and stack) read as the AI SDK
 * error it was: an `AI_…` name gets the AI SDK's markers, and an APICallError its status,
 * retryability, body, parsed error and retry headers from `metadata`. Returns the same object.
 */
export function asAiSdkError(err: Error, metadata: Readonly<Record<string, unknown>> = {}): Error {
  if (!err.name.startsWith('AI_')) return err;
  const fields = err as unknown as Record<string | symbol, unknown>;
  fields[Symbol.for(AI_SDK_MARKER)] = true;
  fields[Symbol.for(`${AI_SDK_MARKER}.${err.name}`)] = true;
  if (err.name !== API_CALL_ERROR) return err;
  const status = metadata['http_status'];
  const statusCode = typeof status === 'number' ? status : undefined;
  const retryable = metadata['retryable'];
  const body = metadata['error_body'];
  const headers = metadata['retry_after'];
  Object.assign(err, {
    url: undefined,
    requestBodyValues: undefined,
    statusCode,
    responseHeaders: isObject(headers) ? { ...headers } : undefined,
    responseBody: typeof body === 'string' ? body : undefined,
    // A record made before these facts were kept: the APICallError constructor's own default.
    isRetryable: typeof retryable === 'boolean' ? retryable : defaultRetryable(statusCode),
    data: structuredClone(metadata['error_data']),
  });
  return err;
}

/**
 * A recorded stream error part's `error`, as the stream carried it: the `{name, message}` that
 * json.ts made of an Error becomes an Error again (with no stack, as none was recorded);
 * anything else (a provider's error object, a string) is handed back as it was stored.
 */
export function streamErrorOf(stored: unknown): unknown {
  if (!isObject(stored)) return stored;
  const { name, message } = stored;
  if (Object.keys(stored).length !== 2 || typeof name !== 'string' || typeof message !== 'string') {
    return structuredClone(stored);
  }
  return asAiSdkError(replayedError(stored));
}

function hasMarker(err: unknown, marker: string): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as Record<symbol, unknown>)[Symbol.for(marker)] === true
  );
}

function retryHeadersOf(headers: unknown): Record<string, string> | undefined {
  if (!isObject(headers)) return undefined;
  const kept = RETRY_HEADERS.filter((name) => typeof headers[name] === 'string');
  if (kept.length === 0) return undefined;
  return Object.fromEntries(kept.map((name) => [name, headers[name] as string]));
}

/** As @ai-sdk/provider's APICallError decides it: timeouts, conflicts, rate limits, 5xx. */
function defaultRetryable(status: number | undefined): boolean {
  return (
    status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500)
  );
}
