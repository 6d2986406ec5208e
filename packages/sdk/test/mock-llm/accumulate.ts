// Feeding a codec's stream accumulator a list of events, as the recording does.
import type { ProviderCodec, StreamAccumulator } from '../../src/hooks/providers/codec.js';
import type { SseEvent } from '../../src/hooks/providers/sse.js';

/** The accumulator of `codec` after `events`, in order. */
export function accumulate(codec: ProviderCodec, events: readonly SseEvent[]): StreamAccumulator {
  const accumulator = codec.accumulator();
  for (const event of events) accumulator.add(event);
  return accumulator;
}
