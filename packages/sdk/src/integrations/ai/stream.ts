// Recording a doStream call without changing what the caller reads. Each part passes through
// unchanged, in order, as soon as it arrives (nothing is buffered); a JSON copy is kept as
// `response.chunks`, which is what a replay streams back, and text, reasoning, tool calls,
// finish reason and usage are gathered into the response shape as the parts go by. The HTTP
// response headers a client acts on (the stream result's `response.headers`, by the allowlist)
// are kept as `response.headers`, which a replay hands back with the stream.
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { LlmToolCall } from '../../core/events.js';
import { findingError } from '../../hooks/providers/provider-error.js';
import type { LlmCallOutcome, LlmCallSpan } from '../../hooks/spans/llm.js';
import { toJson } from './json.js';
import { metadataOf, responseHeaders, responseOf, toolCallOf, usageOf } from './response.js';

/**
 * A pass-through stream that ends `span` when the model's stream ends: with the response when
 * it ended cleanly, as failed (keeping what arrived) when it carried an error part, failed, or
 * was cancelled by its reader. `headers` are the stream result's response headers.
 */
export function recordingStream(
  span: LlmCallSpan,
  headers?: unknown,
): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const recording = new StreamRecording(responseHeaders(headers));
  const transformer: CancellableTransformer<LanguageModelV3StreamPart> = {
    transform(part, controller) {
      // Copied before the caller sees it: the record holds the part as the model sent it.
      recording.add(part);
      controller.enqueue(part);
    },
    flush() {
      const failure = recording.failure;
      if (failure === undefined) span.end(recording.outcome());
      else span.fail(failure.error, recording.partial());
    },
    // Called when the reader cancels (with its reason, if it gave one) and when the model's
    // stream errors (with the error).
    cancel(reason: unknown) {
      span.fail(reason ?? cancelled(recording.partCount), recording.partial());
    },
  };
  return new TransformStream(transformer);
}

/**
 * A transformer with the Streams standard's `cancel` hook, which Node has run since 20.14 (the
 * SDK needs 20.19) but which the TypeScript DOM and Node typings do not list yet.
 */
interface CancellableTransformer<T> extends Transformer<T, T> {
  cancel(reason: unknown): void;
}

/** The code the provider-aware fetch capture records for the same event, so both read alike. */
function cancelled(parts: number): Error {
  return findingError(
    'PROVIDER_STREAM_CANCELLED',
    `expected the stream to be read to its end, got cancelled by the consumer after ${parts} parts`,
  );
}

/** What a stream has said so far. */
class StreamRecording {
  readonly #chunks: unknown[] = [];
  /** Text and reasoning by part id, in the order each part started. */
  readonly #texts = new Map<string, string>();
  readonly #reasonings = new Map<string, string>();
  readonly #toolCalls: LlmToolCall[] = [];
  #finishReason: unknown = null;
  #usage: unknown = null;
  #response: { id?: string; modelId?: string } | undefined;
  #failure: { readonly error: unknown } | undefined;
  readonly #headers: { headers?: Record<string, string> };

  constructor(headers: { headers?: Record<string, string> }) {
    this.#headers = headers;
  }

  add(part: LanguageModelV3StreamPart): void {
    this.#chunks.push(toJson(part, 'AI SDK stream part'));
    switch (part.type) {
      case 'text-start':
      case 'text-delta':
        append(this.#texts, part.id, part.type === 'text-delta' ? part.delta : '');
        break;
      case 'reasoning-start':
      case 'reasoning-delta':
        append(this.#reasonings, part.id, part.type === 'reasoning-delta' ? part.delta : '');
        break;
      case 'tool-call':
        this.#toolCalls.push(toolCallOf(part));
        break;
      case 'response-metadata':
        this.#response = part;
        break;
      case 'finish':
        this.#finishReason = part.finishReason;
        this.#usage = part.usage;
        break;
      case 'error':
        // The first error is the cause; providers may send a finish part after it.
        this.#failure ??= { error: part.error };
        break;
    }
  }

  /** How many parts have arrived. */
  get partCount(): number {
    return this.#chunks.length;
  }

  /** The error part the stream carried, if any. */
  get failure(): { readonly error: unknown } | undefined {
    return this.#failure;
  }

  outcome(): LlmCallOutcome {
    return {
      response: {
        ...responseOf({
          texts: [...this.#texts.values()],
          reasonings: [...this.#reasonings.values()],
          toolCalls: this.#toolCalls,
          finishReason: this.#finishReason,
        }),
        ...this.#headers,
        chunks: this.#chunks,
      },
      usage: usageOf(this.#usage),
      metadata: metadataOf(this.#response),
    };
  }

  /** The metadata of a failed call: what arrived before it failed, under `partial`. */
  partial(): Record<string, unknown> {
    const { response, usage, metadata } = this.outcome();
    return { ...metadata, partial: { response, usage: usage ?? null } };
  }
}

function append(texts: Map<string, string>, id: string, delta: string): void {
  texts.set(id, (texts.get(id) ?? '') + delta);
}
