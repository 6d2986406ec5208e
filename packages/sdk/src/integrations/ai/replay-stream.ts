// Answering a doStream call from the record: the recorded parts (`response.chunks`, or for a
// failed stream the `metadata.partial` that stream.ts kept) are streamed back in order, with the
// response headers the record kept (`response.headers`), and the provider is never called.
import type { LanguageModelV3StreamPart, LanguageModelV3StreamResult } from '@ai-sdk/provider';
import { toEventError } from '../../core/events.js';
import { endReplayed, type LlmCallSpan, type RecordedLlmCall } from '../../hooks/spans/llm.js';
import { asAiSdkError, streamErrorOf } from './call-error.js';
import { isObject } from '../../core/values.js';
import { servedHeaders } from '../../hooks/providers/http-headers.js';
import { failUnsupported, withTimestamp } from './replay-support.js';

/**
 * How the recorded stream ended after its last part: `close` when the model's stream ended (a
 * success, or a failure the stream carried as an error part), `error` when the stream itself
 * errored or its reader cancelled it.
 */
type Ending = 'close' | 'error';

/**
 * The recorded answer of a replayed stream call. A call whose doStream threw when recorded (a
 * failure with no partial stream) throws the same error now.
 */
export function replayStream(
  span: LlmCallSpan,
  recorded: RecordedLlmCall,
  modelId: string,
): LanguageModelV3StreamResult {
  const failed = recorded.error !== null || recorded.response === null;
  const answer: unknown = recorded.response;
  const response = failed
    ? partialResponseOf(recorded.metadata)
    : isObject(answer)
      ? answer
      : undefined;
  const chunks = response?.['chunks'];
  if (failed && chunks === undefined) {
    throw asAiSdkError(endReplayed(span) as Error, recorded.metadata);
  }
  const parts = chunks === undefined ? undefined : partsOf(chunks);
  if (parts === undefined) {
    throw failUnsupported(span, modelId, 'a recorded stream (response.chunks)', recorded);
  }
  const ending: Ending = !failed || carriedError(parts, recorded) ? 'close' : 'error';
  const stream = partStream(span, recorded, parts, ending);
  // As the AI SDK got them live (streamText's `finish-step` part and `response.headers`); a
  // record made before streams kept them has none, and the result then has no response.
  const headers = response?.['headers'];
  return headers === undefined
    ? { stream }
    : { stream, response: { headers: servedHeaders(headers) } };
}

/**
 * The parts, one per pull (a high-water mark of 0: nothing is produced before it is asked for,
 * as with the provider's stream), then the recorded ending.
 *
 * The span ends when the stream does, as a recorded stream call's did: its event is appended
 * then, its latency covers the reading, and a stream the agent never finishes is an unfinished
 * call, as it was when recorded. It ends right after the last part on `close`; on `error`, at
 * the next read, which gets the recorded error (a reader that cancelled when recorded cancels
 * again instead, and the stream is not errored under it); or when the reader cancels. Whichever
 * comes first, the span ends once, with the recorded outcome: what the cassette holds for the
 * call does not depend on what the agent does with the stream this time.
 */
function partStream(
  span: LlmCallSpan,
  recorded: RecordedLlmCall,
  parts: readonly LanguageModelV3StreamPart[],
  ending: Ending,
): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0;
  let ended = false;
  const end = (): Error | undefined => {
    if (ended) return undefined;
    ended = true;
    const failure = endReplayed(span);
    return failure === undefined ? undefined : asAiSdkError(failure, recorded.metadata);
  };
  return new ReadableStream<LanguageModelV3StreamPart>(
    {
      pull(controller) {
        const part = parts[next];
        if (part !== undefined) {
          next++;
          controller.enqueue(part);
          if (next < parts.length || ending === 'error') return;
        }
        const failure = end();
        if (ending === 'close') controller.close();
        else controller.error(failure);
      },
      cancel() {
        end();
      },
    },
    { highWaterMark: 0 },
  );
}

/** What a failed stream delivered before it failed (stream.ts: `metadata.partial.response`). */
function partialResponseOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> | undefined {
  const partial = metadata?.['partial'];
  const response = isObject(partial) ? partial['response'] : undefined;
  return isObject(response) ? response : undefined;
}

/**
 * Recorded chunks as the stream parts they were, copied (nothing done to them can reach the
 * record the report compares against): `response-metadata` with its timestamp a Date again, an
 * error part's error an Error again where one was recorded. Undefined when they are not parts.
 */
function partsOf(chunks: unknown): LanguageModelV3StreamPart[] | undefined {
  if (!Array.isArray(chunks)) return undefined;
  const parts: LanguageModelV3StreamPart[] = [];
  for (const chunk of chunks as unknown[]) {
    if (!isObject(chunk) || typeof chunk['type'] !== 'string') return undefined;
    const part = structuredClone(chunk);
    if (part['type'] === 'response-metadata')
      parts.push(withTimestamp(part) as LanguageModelV3StreamPart);
    else if (part['type'] === 'error')
      parts.push({ type: 'error', error: streamErrorOf(part['error']) });
    else parts.push(part as LanguageModelV3StreamPart);
  }
  return parts;
}

/**
 * Whether the recorded failure is the stream's first error part (stream.ts fails the call with
 * it when the stream then ends), rather than the stream erroring or being cancelled.
 */
function carriedError(
  parts: readonly LanguageModelV3StreamPart[],
  recorded: RecordedLlmCall,
): boolean {
  const first = parts.find((part) => part.type === 'error');
  if (first === undefined || recorded.error === null) return false;
  const carried = toEventError(first.error);
  return carried.name === recorded.error.name && carried.message === recorded.error.message;
}
