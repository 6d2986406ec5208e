// The cassette digests (docs/spec.md §4.3) of events added one at a time in array order, for a
// record whose events are in seq order, as writers append them: each entry is hashed as it
// comes, so no event need be held until the walk ends. When the events turn out not to be in
// seq order, `unordered` is set and nothing it computed is to be used: the caller then walks
// the whole events array in seq order (cassetteDigestsByReading). Same digests, and the same
// error for an event that cannot enter the stream, as cassetteDigestsByReading on those events.
import {
  entryTextsByReading,
  ReplayDigestError,
  type CassetteDigestsByReading,
  type KnownMemberTexts,
} from '@runback/replay-digest';
import { ReadingChains } from './reading-chains.js';

/** The cassette digests gathered one event at a time (this walk, or a stream's). */
export interface CassetteAccumulator {
  /** Adds the event at `index` (events come in array order); `known` may supply member texts. */
  add(event: unknown, index: number, known?: KnownMemberTexts): void;
  /** The digests under both readings; throws what cassetteDigestsByReading would throw. */
  digests(): CassetteDigestsByReading;
}

export class InOrderCassette implements CassetteAccumulator {
  readonly #chains = new ReadingChains();
  #lastSeq = -Infinity;
  // The first event that cannot enter the stream: thrown by digests() only once every event
  // was seen in seq order (else the seq-ordered walk meets the error the order gives).
  #error: Error | null = null;
  /** Whether an event came before one added earlier in seq order (then digests() is void). */
  unordered = false;

  add(event: unknown, index: number, known?: KnownMemberTexts): void {
    if (this.unordered) return;
    const raw = (event as { seq?: unknown } | null)?.seq;
    const seq = typeof raw === 'number' && !Number.isNaN(raw) ? raw : Infinity;
    if (seq < this.#lastSeq) {
      this.unordered = true;
      return;
    }
    this.#lastSeq = seq;
    if (this.#error !== null) return;
    let texts;
    try {
      texts = entryTextsByReading(event, known, index);
    } catch (err) {
      if (err instanceof ReplayDigestError) err.eventIndex = index;
      this.#error = err instanceof Error ? err : new Error(String(err));
      return;
    }
    if (texts === null) return;
    this.#chains.add(texts.published, texts.seed);
  }

  digests(): CassetteDigestsByReading {
    if (this.unordered) throw new TypeError('expected events in seq order, got them out of order');
    if (this.#error !== null) throw this.#error;
    return this.#chains.digests();
  }
}
