// Recording a model API call made through fetch as an `llm` event. The one path for every way
// a call is seen: environment capture (env/fetch.ts, a wrapped globalThis.fetch) and the
// client integrations (a recording fetch handed to the OpenAI or Anthropic client). Request
// headers are never read into the event: they hold the API key. Of the response, the status,
// the headers a client acts on (an allowlist: http-headers.ts) and the body are recorded, for
// successes and errors alike. In a replay the request is not sent: the recorded answer is
// served (replay-response.ts).
import { isReplayMiss, type ReplayMissError } from '../../session/replay-source.js';
import { waitForSinkRoom } from '../spans/call.js';
import { beginLlmCall, type LlmCallSpan } from '../spans/llm.js';
import type { ProviderCodec } from './codec.js';
import { codecFor } from './codecs.js';
import { keptHeaders } from './http-headers.js';
import { isRecord, parseJsonOr, type JsonObject } from './json.js';
import { findingError, httpFailure, errorForSpan } from './provider-error.js';
import { recordStream } from './record-stream.js';
import { replayedResponse } from './replay-response.js';

/** A fetch that takes a Request. */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * Sends `request` with `next`, recording it as an llm event when it is a call to a known model
 * API (OpenAI chat completions or responses, Anthropic messages) made inside a recorded run.
 * Returns undefined, synchronously and without reading the body, when the request is not such
 * a call; the caller then sends it its own way.
 */
export function interceptProviderCall(
  request: Request,
  next: FetchLike,
): Promise<Response> | undefined {
  const codec = codecFor(request.method, request.url, request.headers);
  return codec === undefined ? undefined : recordCall(codec, request, next);
}

async function recordCall(
  codec: ProviderCodec,
  request: Request,
  next: FetchLike,
): Promise<Response> {
  const body = await requestJson(request);
  await waitForSinkRoom();
  // Not JSON with a model (an Azure deployment URL, a malformed call): nothing to key it by.
  let span: LlmCallSpan | undefined;
  try {
    span =
      body === undefined
        ? undefined
        : beginLlmCall({
            provider: codec.provider,
            modelId: body['model'] as string,
            request: codec.mapRequest(body),
            metadata: { api: codec.api },
          });
  } catch (err) {
    // By code, not class: the miss may come from another copy of the SDK (core/sdk-registry.ts).
    if (isReplayMiss(err)) return replayMissResponse(err);
    throw err;
  }
  if (span === undefined) return next(request);
  if (span.replayed !== undefined) return replayedResponse(codec, span, span.replayed);

  let response: Response;
  try {
    // Inside the call's span: the fetch it makes is part of this call, not an env read.
    response = await span.run(() => next(request));
  } catch (err) {
    span.fail(err);
    throw err;
  }
  return recordResponse(codec, span, response);
}

/** The request body when it is a JSON object with a string `model`; read from a clone. */
async function requestJson(request: Request): Promise<JsonObject | undefined> {
  if (request.body === null) return undefined;
  const body = parseJsonOr(await request.clone().text(), undefined);
  return isRecord(body) && typeof body['model'] === 'string' ? body : undefined;
}

async function recordResponse(
  codec: ProviderCodec,
  span: LlmCallSpan,
  response: Response,
): Promise<Response> {
  const http = httpMetadata(response);
  const contentType = response.headers.get('content-type') ?? '';
  if (response.ok && response.body !== null && contentType.includes('text/event-stream')) {
    return recordStream(codec, span, response, http, response.body);
  }
  let text: string;
  try {
    // A clone: the caller gets the provider's own Response, read or not.
    text = await response.clone().text();
  } catch (err) {
    span.fail(err, http);
    return response;
  }
  if (!response.ok) {
    const { error, body } = httpFailure(response.status, text);
    span.fail(errorForSpan(error), { ...http, error_body: body });
    return response;
  }
  const body = parseJsonOr(text, undefined);
  if (body === undefined) {
    const excerpt = JSON.stringify(text.slice(0, 200));
    span.fail(
      findingError('PROVIDER_RESPONSE_NOT_JSON', `expected a JSON response body, got ${excerpt}`),
      {
        ...http,
        error_body: text,
      },
    );
    return response;
  }
  const { response: reading, usage, metadata } = codec.readResponse(body);
  span.end({ response: { ...reading, raw: body }, usage, metadata: { ...http, ...metadata } });
  return response;
}

/**
 * Facts of the HTTP exchange kept with the event: the status, the provider's request id, and the
 * response headers a client acts on (`http_headers`), which a replay serves again.
 */
function httpMetadata(response: Response): Record<string, unknown> {
  const requestId = response.headers.get('x-request-id') ?? response.headers.get('request-id');
  const headers = keptHeaders(response.headers, 'provider');
  return {
    http_status: response.status,
    ...(requestId === null ? {} : { request_id: requestId }),
    ...(Object.keys(headers).length === 0 ? {} : { http_headers: headers }),
  };
}

/**
 * A replay miss as the client sees it: an HTTP 400 whose error message is the miss (which call,
 * the nearest recorded one, the request difference), marked `x-should-retry: false` so that
 * the OpenAI and Anthropic clients fail at once instead of retrying a call that cannot succeed.
 * A rejected fetch would look like a network error, and be retried.
 */
function replayMissResponse(err: ReplayMissError): Response {
  const error = { type: 'runback_replay_miss', code: err.code, message: err.message };
  return new Response(JSON.stringify({ type: 'error', error }), {
    status: 400,
    statusText: 'Runback Replay Miss',
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false' },
  });
}
