// A fetch that records model API calls made inside a recorded run, for clients that take a
// `fetch` option (OpenAI, Anthropic, and others built the same way). Outside a run, and for
// any request that is not a model API call, it is the wrapped fetch called with the very same
// arguments, so options a Request cannot carry (undici's `dispatcher`) still reach it.
import { argError } from '../../core/errors.js';
import { currentScope } from '../../session/context.js';
import { codecFor } from './codecs.js';
import { interceptProviderCall } from './intercept.js';

/** The fetch signature the provider clients take. */
export type FetchFunction = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<Response>;

/** Marks a recording fetch, so that wrapping one again returns it unchanged. */
const RECORDING = Symbol.for('runback.recordingFetch');

/**
 * A fetch that records calls to OpenAI (chat completions, responses) and Anthropic (messages)
 * as llm events of the run it is called in. `fetchImpl` defaults to the global fetch as it is
 * at each call. Pass the result as a client's `fetch` option.
 */
export function runbackFetch(fetchImpl?: FetchFunction): FetchFunction {
  if (fetchImpl !== undefined && typeof fetchImpl !== 'function') {
    throw argError('fetchImpl', 'a fetch function', fetchImpl);
  }
  if (fetchImpl !== undefined && isRecordingFetch(fetchImpl)) return fetchImpl;
  const send: FetchFunction = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));

  const recording: FetchFunction = (input, init) => {
    const scope = currentScope();
    // Outside a run, or inside a call already being recorded: exactly the wrapped fetch.
    if (scope === undefined || scope.kind === 'llm' || !isModelCall(input, init)) {
      return send(input, init);
    }
    let request: Request;
    try {
      request = new Request(input, init);
    } catch (err) {
      // As fetch itself does with arguments it cannot make a request of.
      return Promise.reject(err as Error);
    }
    const asGiven = sendableAsGiven(input, init);
    const handled = interceptProviderCall(request, (req) =>
      req === request && asGiven ? send(input, init) : send(req),
    );
    return handled ?? send(input, init);
  };
  Object.defineProperty(recording, RECORDING, { value: true });
  return recording;
}

/** Whether `fn` is a fetch made by {@link runbackFetch}. */
export function isRecordingFetch(fn: unknown): boolean {
  return typeof fn === 'function' && (fn as unknown as Record<symbol, unknown>)[RECORDING] === true;
}

/**
 * Recognises a model call from the method, URL and headers, without building a Request. Input
 * fetch would reject (headers it cannot read) is not a model call: fetch rejects it as usual.
 */
function isModelCall(input: string | URL | Request, init: RequestInit | undefined): boolean {
  const given = input instanceof Request ? input : undefined;
  const method = init?.method ?? given?.method ?? 'GET';
  const url = given?.url ?? (input instanceof URL ? input.href : String(input));
  try {
    return codecFor(method, url, new Headers(init?.headers ?? given?.headers)) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Whether `(input, init)` can still be sent after a Request was built from them: not when the
 * body is a stream, which the Request took over.
 */
function sendableAsGiven(input: string | URL | Request, init: RequestInit | undefined): boolean {
  if (input instanceof Request && input.body !== null) return false;
  const body: unknown = init?.body;
  if (body instanceof ReadableStream) return false;
  return !(typeof body === 'object' && body !== null && Symbol.asyncIterator in body);
}
