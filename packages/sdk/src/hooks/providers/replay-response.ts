// Answering a model call in a replay: the request is not sent; the recorded answer is handed to
// the client as the HTTP response the provider gave, so the client's own code (parsing,
// streaming helpers, error classes) runs as it did. `response.raw` is served as the JSON body,
// `response.chunks` as an event stream, a recorded HTTP error as its status and body, each with
// the recorded response headers (`metadata.http_headers`: retry and rate-limit headers, request
// ids, content type), so that the client decides to retry, waits and fails as it did; a call
// that failed without an HTTP answer (a network error) fails the fetch with the recorded error.
import { RunbackError } from '../../core/errors.js';
import type { EventError } from '../../core/events.js';
import { replayedError } from '../../session/serve.js';
import { endReplayed, type LlmCallSpan, type RecordedLlmCall } from '../spans/llm.js';
import type { ProviderCodec } from './codec.js';
import { servedHeaders } from './http-headers.js';
import { isRecord, stringOrNull } from './json.js';
import { formatSseEvent, type SseEvent } from './sse.js';

/**
 * The recorded answer of a replayed span as a Response, the span ended with it. Rejects with
 * the recorded error when the call never got an HTTP answer.
 */
export function replayedResponse(
  codec: ProviderCodec,
  span: LlmCallSpan,
  recorded: RecordedLlmCall,
): Promise<Response> {
  const metadata = recorded.metadata ?? {};
  const headers =
    'http_headers' in metadata
      ? servedHeaders(metadata['http_headers'])
      : requestIdHeaders(metadata);
  const answer = recordedAnswer(codec, recorded, metadata, headers);
  // The replayed event is the recorded one: same response, error and metadata.
  const failure = endReplayed(span);
  if (answer === undefined) return Promise.reject(failure ?? notServable(codec));
  return Promise.resolve(answer);
}

function recordedAnswer(
  codec: ProviderCodec,
  recorded: RecordedLlmCall,
  metadata: Record<string, unknown>,
  headers: Record<string, string>,
): Response | undefined {
  const status = typeof metadata['http_status'] === 'number' ? metadata['http_status'] : 200;
  if (recorded.response !== null && recorded.error === null) {
    if (Array.isArray(recorded.response.chunks)) {
      return eventStream(recorded.response.chunks as SseEvent[], undefined, status, headers);
    }
    if (recorded.response.raw !== undefined) return json(recorded.response.raw, status, headers);
    return undefined;
  }
  if ('error_body' in metadata) return json(metadata['error_body'], status, headers);
  const partial = isRecord(metadata['partial']) ? metadata['partial'] : {};
  const chunks = isRecord(partial['response']) ? partial['response']['chunks'] : undefined;
  if (!Array.isArray(chunks)) return undefined;
  // A stream that failed midway: the events that arrived, then the failure. When the provider
  // reported it in the stream, its error event is among them and the client throws on it.
  const inBand = endsInError(codec, chunks as SseEvent[]);
  return eventStream(chunks as SseEvent[], inBand ? undefined : recorded.error, status, headers);
}

function endsInError(codec: ProviderCodec, chunks: readonly SseEvent[]): boolean {
  const accumulator = codec.accumulator();
  for (const chunk of chunks) accumulator.add(chunk);
  return accumulator.failure() !== undefined;
}

function json(body: unknown, status: number, headers: Record<string, string>): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json';
  return new Response(nullBodyStatus(status) ? null : text, {
    status,
    headers: { 'content-type': type, ...headers },
  });
}

/** 101, 204, 205 and 304 responses cannot carry a body. */
function nullBodyStatus(status: number): boolean {
  return status === 101 || status === 204 || status === 205 || status === 304;
}

/** The events as the provider streamed them, one per read; then `failure`, if any. */
function eventStream(
  chunks: readonly SseEvent[],
  failure: EventError | null | undefined,
  status: number,
  headers: Record<string, string>,
): Response {
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk !== undefined) controller.enqueue(encoder.encode(formatSseEvent(chunk)));
        else if (failure !== undefined && failure !== null)
          controller.error(replayedError(failure));
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status,
    headers: { 'content-type': 'text/event-stream', ...headers },
  });
}

/**
 * For a record written before response headers were kept: the provider's request id, so the
 * client reports the one it reported when recorded.
 */
function requestIdHeaders(metadata: Record<string, unknown>): Record<string, string> {
  const id = stringOrNull(metadata['request_id']);
  return id === null ? {} : { 'x-request-id': id, 'request-id': id };
}

function notServable(codec: ProviderCodec): RunbackError {
  return new RunbackError(
    'REPLAY_UNSUPPORTED',
    `${codec.api}: expected the recorded call to hold response.raw or response.chunks, got neither`,
  );
}
