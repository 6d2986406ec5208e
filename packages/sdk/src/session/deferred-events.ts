// An in-memory record whose `events` are parsed from their sealed texts only when first read.
// A replay's own run (recorder/replay.ts) is proved by its digests, which the sealer computed as
// the events were sealed; its events are read only to locate a divergence, or by a caller who
// asks for `result.record.events`. Until then the run's texts are the only copy, and a compact
// one: a sealed text is a tree of pieces (its hash, its members' texts), which costs about half
// as much again as its characters; joined, a thousand texts are one flat string and offsets.
import type { EventTexts } from './stored-events.js';

/** How many texts are joined into one string (a bound on the extra copy while joining). */
const CHUNK = 1024;

/** Texts joined CHUNK at a time: each chunk one string, each text's end offset within it. */
class JoinedTexts implements EventTexts {
  readonly length: number;
  readonly #chunks: string[] = [];
  readonly #ends: Uint32Array;

  /** Joins `texts`, emptying each text (and then the array) as its chunk is joined. */
  constructor(texts: string[]) {
    this.length = texts.length;
    this.#ends = new Uint32Array(texts.length);
    for (let from = 0; from < texts.length; from += CHUNK) {
      const to = Math.min(texts.length, from + CHUNK);
      let end = 0;
      for (let i = from; i < to; i++) {
        end += (texts[i] as string).length;
        this.#ends[i] = end;
      }
      this.#chunks.push(texts.slice(from, to).join(''));
      for (let i = from; i < to; i++) texts[i] = '';
    }
    texts.length = 0;
  }

  text(i: number): string {
    const chunk = this.#chunks[Math.floor(i / CHUNK)] as string;
    const start = i % CHUNK === 0 ? 0 : (this.#ends[i - 1] as number);
    return chunk.slice(start, this.#ends[i]);
  }
}

/** The unparsed texts of records made by withDeferredEvents, until their events are read. */
const pending = new WeakMap<object, EventTexts>();

/**
 * `head` with an `events` member (enumerable, so JSON.stringify and spreads see it) that parses
 * `texts` on first read, letting go of the texts once parsed, and is the same array afterwards.
 * `texts` is taken over: it is joined, and emptied.
 */
export function withDeferredEvents<T extends object>(
  head: T,
  texts: string[],
): T & { readonly events: unknown[] } {
  const record = { ...head } as T & { readonly events: unknown[] };
  let joined: JoinedTexts | undefined = new JoinedTexts(texts);
  pending.set(record, joined);
  Object.defineProperty(record, 'events', {
    enumerable: true,
    configurable: true,
    get(): unknown[] {
      const events: unknown[] = [];
      const read = joined as JoinedTexts;
      for (let i = 0; i < read.length; i++) events.push(JSON.parse(read.text(i)));
      // Parsed: the texts are let go.
      joined = undefined;
      pending.delete(record);
      Object.defineProperty(record, 'events', { value: events, enumerable: true, writable: true });
      return events;
    },
  });
  return record;
}

/** A deferred record's event texts while its events are unread; undefined otherwise. */
export function deferredTexts(record: object): EventTexts | undefined {
  return pending.get(record);
}
