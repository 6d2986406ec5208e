// The cassette digests (docs/spec.md §4.3) of events added one at a time in array order, for
// a record whose oracle entries are in seq order or nearly so: writers append events as calls
// complete, so concurrent calls land a few places out of seq order. Each entry is hashed as
// it comes, so no event need be held until the walk ends; the last REORDER_WINDOW entries are
// remembered with where the chains stood before each, so that one arriving after entries it
// belongs before (in seq order, then array order, as the stable seq sort orders them) is
// hashed in its place and those after it again. An entry that belongs before one no longer
// remembered sets `unordered`, and then nothing computed here is to be used: the caller walks
// the whole events array in seq order (cassetteDigestsByReading). So does rehashing more than
// REHASH_PER_ENTRY entries per entry on average: a record whose entries come in reversed runs
// just shorter than the window would otherwise have most of them hashed dozens of times (such
// a 100k-event record verified in 1.4 s against 0.52 s in order, and 0.58 s the sorting way).
// Otherwise the digests, and the error for an event that cannot enter the stream, are those
// cassetteDigestsByReading gives on the same events.
import type {
  CassetteDigestsByReading,
  EntryTexts,
  KnownMemberTexts,
} from '@runback/replay-digest';
import type { CassetteAccumulator } from './event-steps.js';
import { entryTextsAt, seqKey } from './oracle-entry-texts.js';
import { ReadingChains } from './reading-chains.js';

/** How many hashed entries are remembered, to put a late one back in seq order. */
export const REORDER_WINDOW = 64;
/**
 * Entries hashed again to put late ones in place, per entry on average (beyond one window's
 * worth), before the sorting walk is cheaper: writers' concurrent calls come to far fewer.
 */
export const REHASH_PER_ENTRY = 2;

export class InOrderCassette implements CassetteAccumulator {
  readonly #chains = new ReadingChains();
  // The last entries hashed, oldest first, in seq order: a ring of REORDER_WINDOW slots from
  // #first, #count of them in use, each slot with the entry's seq, its texts and where the
  // chains stood before it (parallel arrays: no object made per entry).
  readonly #seqs = new Float64Array(REORDER_WINDOW);
  readonly #texts: (EntryTexts | undefined)[] = new Array<EntryTexts | undefined>(REORDER_WINDOW);
  readonly #beforePublished: string[] = new Array<string>(REORDER_WINDOW).fill('');
  readonly #beforeSeed: string[] = new Array<string>(REORDER_WINDOW).fill('');
  readonly #beforeDiverged = new Uint8Array(REORDER_WINDOW);
  readonly #beforeCount = new Int32Array(REORDER_WINDOW);
  #first = 0;
  #count = 0;
  // The seq of the last entry let go from the remembered ones (-Infinity: none yet): an entry
  // that belongs before it can no longer be hashed in its place.
  #forgotSeq = -Infinity;
  // The first entry that cannot enter the stream, and its seq: from then on only the order
  // of the events after it is checked (one that belongs before it voids the walk).
  #error: Error | null = null;
  #errorSeq = -Infinity;
  // Oracle entries added, and entries hashed again since to put late ones in place.
  #entries = 0;
  #rehashed = 0;
  /**
   * Whether an entry belongs before one no longer remembered, or late entries cost more
   * rehashing than REHASH_PER_ENTRY allows (then digests() is void).
   */
  unordered = false;

  add(event: unknown, index: number, known?: KnownMemberTexts): void {
    if (this.unordered) return;
    const seq = seqKey(event);
    if (this.#error !== null) {
      // Any event, oracle entry or not: a stricter test than needed, never a wrong result.
      if (seq < this.#errorSeq) this.unordered = true;
      return;
    }
    const texts = entryTextsAt(event, index, known);
    if (texts === null) return;
    if (texts instanceof Error) {
      this.#fail(texts, seq);
      return;
    }
    this.#entries++;
    if (this.#count > 0 && seq < this.#lastSeq()) this.#hashLate(seq, texts);
    else this.#hash(seq, texts);
  }

  digests(): CassetteDigestsByReading {
    if (this.unordered) throw new TypeError('expected events in seq order, got them out of order');
    if (this.#error !== null) throw this.#error;
    return this.#chains.digests();
  }

  /** Slot k of the ring (k from 0, the oldest remembered entry). */
  #slot(k: number): number {
    return (this.#first + k) % REORDER_WINDOW;
  }

  #lastSeq(): number {
    return this.#seqs[this.#slot(this.#count - 1)] as number;
  }

  /** Hashes an entry after those remembered, and remembers it. */
  #hash(seq: number, texts: EntryTexts): void {
    if (this.#count === REORDER_WINDOW) {
      this.#forgotSeq = this.#seqs[this.#first] as number;
      this.#first = (this.#first + 1) % REORDER_WINDOW;
      this.#count--;
    }
    const slot = this.#slot(this.#count++);
    this.#seqs[slot] = seq;
    this.#texts[slot] = texts;
    const chains = this.#chains;
    this.#beforePublished[slot] = chains.publishedHead;
    this.#beforeSeed[slot] = chains.seedHead;
    this.#beforeDiverged[slot] = chains.diverged ? 1 : 0;
    this.#beforeCount[slot] = chains.count;
    chains.add(texts.published, texts.seed);
  }

  /** An entry that belongs before some remembered ones: hashed in its place, they after it. */
  #hashLate(seq: number, texts: EntryTexts): void {
    // Equal seqs keep array order: it goes after every remembered entry of its seq.
    let q = this.#count;
    while (q > 0 && (this.#seqs[this.#slot(q - 1)] as number) > seq) q--;
    if (q === 0 && seq < this.#forgotSeq) {
      this.unordered = true;
      return;
    }
    this.#rehashed += this.#count - q;
    if (this.#rehashed > REHASH_PER_ENTRY * this.#entries + REORDER_WINDOW) {
      this.unordered = true;
      return;
    }
    const after: [number, EntryTexts][] = [];
    for (let k = q; k < this.#count; k++) {
      const slot = this.#slot(k);
      after.push([this.#seqs[slot] as number, this.#texts[slot] as EntryTexts]);
    }
    const slot = this.#slot(q);
    this.#chains.restore({
      published: this.#beforePublished[slot] as string,
      seed: this.#beforeSeed[slot] as string,
      diverged: this.#beforeDiverged[slot] === 1,
      count: this.#beforeCount[slot] as number,
    });
    this.#count = q;
    this.#hash(seq, texts);
    for (const [s, t] of after) this.#hash(s, t);
  }

  /** An entry that cannot enter the stream: the walk's error, unless it belongs earlier. */
  #fail(error: Error, seq: number): void {
    // In the seq order walk it comes before entries already hashed: rather than unhash
    // them, the whole array is walked in order.
    if (this.#count > 0 && seq < this.#lastSeq()) {
      this.unordered = true;
      return;
    }
    this.#error = error;
    this.#errorSeq = seq;
  }
}
