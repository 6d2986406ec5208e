// A fetch that records model API calls made inside a recorded run, for clients that take a
// `fetch` option (OpenAI, Anthropic, and others built the same way). Outside a run, and for
// any request that is not a model API call, it is the wrapped fetch called with the very same
// arguments, so options a Request cannot carry (undici's `dispatcher`) still reach it.
//
// Where the call is recorded (docs/guides/replay.md, "Custom fetch"): wrapping the global
// fetch, here, before it is sent; wrapping a custom fetch, at the wire — the custom fetch runs
// first, and the request it sends through the global fetch is recorded (wire.ts), so the record
// holds what was sent and a replay still runs the custom fetch's request side. A custom fetch
// that never reaches the global fetch (its own transport, a canned answer) is recorded here
// after it answers, as the client sent and received it; in a replay it is not run.
import { argError } from '../../core/errors.js';
import { currentScope, runInScope, type Scope } from '../../session/context.js';
import { codecFor } from './codecs.js';
import { interceptProviderCall } from './intercept.js';
import { hookGlobalFetch, isGlobalFetch } from './wire.js';

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
  const custom = fetchImpl !== undefined && !isGlobalFetch(fetchImpl);
  if (custom) hookGlobalFetch();

  const recording: FetchFunction = (input, init) => {
    const scope = currentScope();
    // Outside a run, or inside a call already being recorded: exactly the wrapped fetch.
    if (scope === undefined || scope.kind === 'llm') return send(input, init);
    // A custom fetch runs first, whatever the URL it was given (a gateway's may name no API).
    if (custom) return atTheWire(send, input, init, scope);
    if (!isModelCall(input, init)) return send(input, init);
    let request: Request;
    try {
      request = new Request(input, init);
    } catch (err) {
      // As fetch itself does with arguments it cannot make a request of.
      return Promise.reject(err instanceof Error ? err : new TypeError(String(err)));
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

/**
 * Runs a custom fetch with its model calls recorded at the wire (wire.ts). When none reached the
 * global fetch, the call is recorded as the client sent it and the custom fetch answered; in a
 * replay the recorded answer is served instead (the custom fetch has run, and any request it
 * sent its own way went out).
 */
async function atTheWire(
  send: FetchFunction,
  input: string | URL | Request,
  init: RequestInit | undefined,
  scope: Scope,
): Promise<Response> {
  // What the client handed over, kept for the case where nothing reaches the wire.
  let fallback: Request | undefined;
  let args: Parameters<FetchFunction> = [input, init];
  if (isModelCall(input, init)) {
    try {
      fallback = new Request(input, init);
      if (!sendableAsGiven(input, init)) args = [fallback.clone()];
    } catch {
      fallback = undefined;
    }
  }
  const wire = { seen: false };
  const response = await runInScope({ ...scope, wire }, () => send(...args));
  if (wire.seen || fallback === undefined) return response;
  return interceptProviderCall(fallback, () => Promise.resolve(response)) ?? response;
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
  const url = given?.url ?? (typeof input === 'string' ? input : urlText(input));
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

/** The text of a URL-like input that is not a Request (a URL, or an object with a `href`). */
function urlText(input: URL | Request): string {
  return input instanceof URL ? input.href : input.url;
}
