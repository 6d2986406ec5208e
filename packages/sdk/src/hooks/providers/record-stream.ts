// Recording a streamed (server-sent events) response without holding it back: the caller gets
// a body that yields each piece of the provider's body as soon as it arrives, unchanged, while
// runback parses the same bytes. The call is recorded when the body ends (`response.chunks` in
// order, and the response they add up to); if the consumer cancels or the body fails midway,
// it is recorded as failed with what had arrived in `metadata.partial`.
import type { LlmCallSpan } from '../spans/llm.js';
import type { ProviderCodec } from './codec.js';
import { findingError, errorForSpan } from './provider-error.js';
import { SseParser, type SseEvent } from './sse.js';

/** A Response like `response` whose body is recorded as it is read. */
export function recordStream(
  codec: ProviderCodec,
  span: LlmCallSpan,
  response: Response,
  http: Record<string, unknown>,
  source: ReadableStream<Uint8Array>,
): Response {
  const parser = new SseParser();
  const accumulator = codec.accumulator();
  const chunks: SseEvent[] = [];
  const take = (events: readonly SseEvent[]) => {
    for (const event of events) {
      chunks.push(event);
      accumulator.add(event);
    }
  };
  const partial = () => {
    const { response: accumulated, usage, metadata } = accumulator.reading();
    return { ...http, ...metadata, partial: { response: { ...accumulated, chunks }, usage } };
  };
  // An error the provider reported in the stream is why the call failed, whatever came after it
  // (a client throws on it and cancels the body).
  const fail = (cause: unknown) => {
    const reported = accumulator.failure();
    span.fail(reported === undefined ? cause : errorForSpan(reported), partial());
  };
  const finish = () => {
    take(parser.end());
    if (accumulator.failure() !== undefined) {
      fail(undefined);
      return;
    }
    const { response: whole, usage, metadata } = accumulator.reading();
    span.end({ response: { ...whole, chunks }, usage, metadata: { ...http, ...metadata } });
  };

  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (err) {
          take(parser.end());
          fail(err);
          throw err;
        }
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        take(parser.push(next.value));
        controller.enqueue(next.value);
      },
      async cancel(reason) {
        fail(
          findingError(
            'PROVIDER_STREAM_CANCELLED',
            `expected the stream to be read to its end, got cancelled by the consumer after ${chunks.length} events`,
          ),
        );
        await reader.cancel(reason);
      },
    },
    // Pull only when the consumer reads: nothing is read ahead or buffered on its behalf.
    { highWaterMark: 0 },
  );
  return withBody(response, body);
}

/** A Response with `response`'s status, headers and url, and another body. */
function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const replacement = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // The constructor cannot set `url`; clients read it for error messages and logs.
  if (response.url !== '') Object.defineProperty(replacement, 'url', { value: response.url });
  return replacement;
}
