// The cassette digest of a streamed record (docs/spec.md §4.3). Entries must be hashed in seq
// order, but writers append events in completion order, so concurrent calls arrive a little
// out of seq order. A bounded reorder buffer (a heap on seq, then array index, as the stable
// seq sort orders them) holds entries until the budget is spent; an entry that arrives after
// a later one has already been hashed cannot be placed, and the digest is then refused.
import {
  ReplayDigestError,
  type CassetteDigestsByReading,
  type EntryTexts,
  type KnownMemberTexts,
} from '@runback/replay-digest';
import type { CassetteAccumulator } from '../steps/event-steps.js';
import { entryTextsAt, seqKey } from '../steps/oracle-entry-texts.js';
import { ReadingChains } from '../steps/reading-chains.js';

interface Pending {
  readonly seq: number;
  readonly index: number;
  readonly texts: EntryTexts | null;
  readonly error: Error | null;
  readonly size: number;
}

/**
 * Thrown when the events are further out of seq order than the reorder buffer can mend: the
 * cassette check then fails with code CASSETTE_OUT_OF_ORDER, where verifyJson (which holds
 * every event) would have sorted them. Verifying the same bytes again with a larger
 * `reorderBudget` (or verifyJson) gives the exact verdict.
 */
export class StreamOrderError extends ReplayDigestError {
  constructor(message: string) {
    super('CASSETTE_OUT_OF_ORDER', message);
    this.name = 'StreamOrderError';
  }
}

/** Default reorder budget: characters of entry text held at once. */
export const REORDER_BUDGET = 16 * 1024 * 1024;

export class StreamCassette implements CassetteAccumulator {
  readonly #heap: Pending[] = [];
  #held = 0;
  readonly #chains = new ReadingChains();
  #lastSeq = -Infinity;
  #lastIndex = -1;
  #error: Error | null = null;
  #unordered = false;

  constructor(private readonly budget = REORDER_BUDGET) {}

  /**
   * Adds the event at `index` (events come in array order); `known` may supply canonical
   * texts of its members (for a view, it must: see fast-path/event-views.ts).
   */
  add(event: unknown, index: number, known?: KnownMemberTexts): void {
    if (this.#error !== null || this.#unordered) return;
    const seq = seqKey(event);
    const read = entryTextsAt(event, index, known);
    if (read === null) return;
    const error = read instanceof Error ? read : null;
    const texts = error === null ? held(read as EntryTexts) : null;
    if (before(seq, index, this.#lastSeq, this.#lastIndex)) {
      this.#unordered = true;
      return;
    }
    const size =
      texts === null
        ? 0
        : texts.published.length + (texts.seed === texts.published ? 0 : texts.seed.length);
    this.#push({ seq, index, texts, error, size });
    while (this.#held > this.budget && this.#heap.length > 0) this.#emit();
  }

  /** The digests under both readings; throws what cassetteDigest would throw. */
  digests(): CassetteDigestsByReading {
    while (this.#heap.length > 0 && this.#error === null && !this.#unordered) this.#emit();
    if (this.#unordered) {
      throw new StreamOrderError(
        `expected events no further out of seq order than ${this.budget} characters of oracle entries (the stream's reorder budget), got an entry that belongs before ones already hashed (verify again with a larger reorderBudget, or with verifyJson)`,
      );
    }
    if (this.#error !== null) throw this.#error;
    return this.#chains.digests();
  }

  /**
   * Hashes the first entry held (it can be placed no more). The first erroneous one stops the
   * hashing, and its error is the one reported (cassetteDigestsByReading's: the first in seq
   * order), even when more entries are let go at once.
   */
  #emit(): void {
    const item = this.#pop();
    this.#lastSeq = item.seq;
    this.#lastIndex = item.index;
    if (this.#error !== null) return;
    if (item.error !== null) {
      this.#error = item.error;
      return;
    }
    const { published, seed } = item.texts as EntryTexts;
    this.#chains.add(published, seed);
  }

  #push(item: Pending): void {
    const heap = this.#heap;
    heap.push(item);
    this.#held += item.size;
    let k = heap.length - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      const p = heap[parent] as Pending;
      if (!before(item.seq, item.index, p.seq, p.index)) break;
      heap[k] = p;
      k = parent;
    }
    heap[k] = item;
  }

  #pop(): Pending {
    const heap = this.#heap;
    const top = heap[0] as Pending;
    const last = heap.pop() as Pending;
    this.#held -= top.size;
    if (heap.length > 0) {
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        if (l >= heap.length) break;
        const r = l + 1;
        const a = heap[l] as Pending;
        const b = heap[r];
        const child = b !== undefined && before(b.seq, b.index, a.seq, a.index) ? r : l;
        const c = heap[child] as Pending;
        if (!before(c.seq, c.index, last.seq, last.index)) break;
        heap[k] = c;
        k = child;
      }
      heap[k] = last;
    }
    return top;
  }
}

/** Whether (seq, index) sorts before (otherSeq, otherIndex): the stable seq order. */
function before(seq: number, index: number, otherSeq: number, otherIndex: number): boolean {
  return seq === otherSeq ? index < otherIndex : seq < otherSeq;
}

/**
 * The texts as held in the reorder buffer: each in a string of its own. An entry's text is
 * written from pieces, some of them slices of a chunk's whole text or of a batch's member
 * texts, and a string made of slices keeps what they were sliced from alive: the buffer, which
 * counts only the texts' own characters, then held about as many chunks as entries (a 1 GB
 * record peaked at 638 MB instead of 320 MB). Reading a character of a string made of pieces
 * makes V8 copy them into one flat string, which lets the pieces go.
 */
function held(texts: EntryTexts): EntryTexts {
  texts.published.charCodeAt(0);
  if (texts.seed !== texts.published) texts.seed.charCodeAt(0);
  return texts;
}
