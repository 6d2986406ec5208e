// What runback knows about one model API: how to recognise a call to it, and how to read its
// request, its response and its event stream into the llm event shape (docs/spec.md
// §5). One codec per API; the recording around them (providers/intercept.ts) is shared.
import type { EventError, LlmRequest, LlmResponse, LlmUsage } from '../../core/events.js';
import type { JsonObject } from './json.js';
import type { SseEvent } from './sse.js';

/** A response read into the event shape; `raw` or `chunks` are added by the recording. */
export interface ResponseReading {
  readonly response: Omit<LlmResponse, 'raw' | 'chunks'>;
  readonly usage: LlmUsage | null;
  /** Provider facts for the event's metadata: `response_id`, and more per API. */
  readonly metadata: Record<string, unknown>;
}

/** Reads one streamed response, event by event. */
export interface StreamAccumulator {
  /** Takes the next event of the stream. */
  add(event: SseEvent): void;
  /** What the events so far amount to (the whole response once the stream has ended). */
  reading(): ResponseReading;
  /** The failure the stream reported in-band (an error event), if it reported one. */
  failure(): EventError | undefined;
}

/** One model API. */
export interface ProviderCodec {
  /** Stored as `metadata.api`, so a replay knows which wire format to serve. */
  readonly api: 'openai.chat.completions' | 'openai.responses' | 'anthropic.messages';
  /** `model.provider` of the events. */
  readonly provider: 'openai' | 'anthropic';
  /** Whether a POST to `path` with `headers` is a call to this API (the body is not read). */
  matches(path: string, headers: Headers): boolean;
  /** The request body (a JSON object with a string `model`) as the event's `request`. */
  mapRequest(body: JsonObject): LlmRequest;
  /** A complete JSON response body. */
  readResponse(body: unknown): ResponseReading;
  /** A fresh accumulator for one streamed response. */
  accumulator(): StreamAccumulator;
}
