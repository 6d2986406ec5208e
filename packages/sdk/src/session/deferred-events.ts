// An in-memory record whose `events` are parsed from their sealed texts only when first read.
// A replay's own run (recorder/replay.ts) is proved by its digests, which the sealer computed as
// the events were sealed; its events are read only to locate a divergence, or by a caller who
// asks for `result.record.events`. Until then the run's texts are the only copy.
import type { EventTexts } from './stored-events.js';

/** The unparsed texts of records made by withDeferredEvents, until their events are read. */
const pending = new WeakMap<object, string[]>();

/**
 * `head` with an `events` member (enumerable, so JSON.stringify and spreads see it) that parses
 * `texts` on first read, letting go of each text once parsed, and is the same array afterwards.
 * `texts` is taken over: the caller must not change it.
 */
export function withDeferredEvents<T extends object>(
  head: T,
  texts: string[],
): T & { readonly events: unknown[] } {
  const record = { ...head } as T & { readonly events: unknown[] };
  pending.set(record, texts);
  Object.defineProperty(record, 'events', {
    enumerable: true,
    configurable: true,
    get(): unknown[] {
      const events: unknown[] = [];
      for (let i = 0; i < texts.length; i++) {
        events.push(JSON.parse(texts[i] as string));
        texts[i] = '';
      }
      texts.length = 0;
      pending.delete(record);
      Object.defineProperty(record, 'events', { value: events, enumerable: true, writable: true });
      return events;
    },
  });
  return record;
}

/** A deferred record's event texts while its events are unread; undefined otherwise. */
export function deferredTexts(record: object): EventTexts | undefined {
  const texts = pending.get(record);
  if (texts === undefined) return undefined;
  return { length: texts.length, text: (i) => texts[i] as string };
}
