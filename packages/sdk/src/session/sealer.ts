// Incremental sealing (docs/spec.md §3 and §7): each completed event is hashed onto the event chain as
// it arrives, so ending a run computes nothing over the events again.
//
// The event chain runs in array order, which is completion order. The cassette runs in seq
// order (docs/spec.md §4.3), and seq is assigned when a call *starts*, so that replay serves
// equal keys in the order the calls were made. A call that started earlier can finish later;
// the sealer holds such events back and feeds them to the cassette once every smaller seq has
// arrived. Only calls still in flight are held: memory is bounded by concurrency, not run length.
import { ChainBuilder, HASH_MEMBER } from '@runback/chain';
import { CassetteBuilder, type KnownMemberTexts } from '@runback/replay-digest';
import { eventTexts, knownText, type EventTexts } from './known-text.js';

const SKIPPED = Symbol('skipped');

/** The digests of everything sealed so far. */
export interface SealDigests {
  readonly contentDigest: string;
  readonly cassetteDigest: string;
  readonly entryCount: number;
  readonly eventCount: number;
}

/** Chains events and builds the cassette digest as events complete. */
export class IncrementalSealer {
  readonly #chain: ChainBuilder;
  readonly #cassette = new CassetteBuilder();
  /** Events waiting for a smaller seq; SKIPPED marks a seq that will never arrive. */
  readonly #pending = new Map<number, object | typeof SKIPPED>();
  #nextSeq: number;

  /**
   * `firstSeq`: the smallest seq still to come (0 for a new run). `head` and `count` continue a
   * chain that another writer began (the `runback record` preload continues its parent's).
   */
  constructor(options: { firstSeq?: number; head?: string; count?: number } = {}) {
    this.#nextSeq = options.firstSeq ?? 0;
    this.#chain = new ChainBuilder(options.head, options.count);
  }

  /**
   * Seals one event: returns its stored JSON text (`_hash` set, the event's own members in
   * canonical order, every value as the program gave it; docs/spec.md §7). The event must be
   * JSON data with a unique integer `seq`.
   */
  add(event: { readonly seq: number }): string {
    // Serialised once, from the members' known texts: the canonical text is hashed onto the
    // chain, the stored text (the same text when every value is in canonical order) is written.
    const texts = eventTexts(event);
    const hash = this.#chain.appendCanonical(texts.canonical);
    if (event.seq === this.#nextSeq) {
      // The next in seq order (a call that overlapped none): straight to the cassette.
      this.#cassette.add(event, knownMembers(event));
      this.#nextSeq++;
    } else this.#pending.set(event.seq, event);
    this.#release();
    return storedText(texts, hash, event);
  }

  /** Checks an already sealed event (from a journal) and chains it; returns whether `_hash` matched. */
  addSealed(event: { readonly seq: number; readonly _hash?: unknown }): boolean {
    const hash = this.#chain.append(event);
    this.#pending.set(event.seq, event);
    this.#release();
    return hash === event._hash;
  }

  /** Declares that `seq` will never arrive (its call could not be recorded), so later ones flow. */
  skip(seq: number): void {
    this.#pending.set(seq, SKIPPED);
    this.#release();
  }

  /** The current chain head ("" before the first event). */
  get head(): string {
    return this.#chain.head;
  }

  /** How many events have been sealed. */
  get eventCount(): number {
    return this.#chain.count;
  }

  /**
   * Feeds every held event to the cassette in seq order, skipping seqs that never arrived (a
   * call still running when the run ended), and returns the final digests.
   */
  finish(): SealDigests {
    const rest = [...this.#pending.keys()].sort((a, b) => a - b);
    for (const seq of rest) {
      const event = this.#pending.get(seq);
      if (event !== SKIPPED && event !== undefined) this.#cassette.add(event, knownMembers(event));
    }
    this.#pending.clear();
    return {
      contentDigest: this.#chain.contentDigest,
      cassetteDigest: this.#cassette.digest,
      entryCount: this.#cassette.entryCount,
      eventCount: this.#chain.count,
    };
  }

  #release(): void {
    let event = this.#pending.get(this.#nextSeq);
    while (event !== undefined) {
      if (event !== SKIPPED) this.#cassette.add(event, knownMembers(event));
      this.#pending.delete(this.#nextSeq);
      this.#nextSeq++;
      event = this.#pending.get(this.#nextSeq);
    }
  }
}

/**
 * The stored text of an event: its stored members' text with `"_hash"` inserted in sorted
 * position. When every member name sorts after "_hash" (all of the format's do), that is the
 * front; otherwise the text is rebuilt with `_hash` among the members.
 */
function storedText(texts: EventTexts, hash: string, event: object): string {
  // The names are sorted: all sort after "_hash" when the first does (or there are none).
  if (texts.firstName === '' || texts.firstName > HASH_MEMBER) {
    const text = texts.stored;
    return `{"${HASH_MEMBER}":"${hash}"${text.length === 2 ? '}' : `,${text.slice(1)}`}`;
  }
  return eventTexts({ ...event, [HASH_MEMBER]: hash }).stored;
}

/** The snapshot texts of an event's members, for the cassette (run/known-text.ts). */
function knownMembers(event: object): KnownMemberTexts {
  return {
    memberText: (_index, member) => {
      const value = (event as Record<string, unknown>)[member];
      return typeof value === 'object' && value !== null ? knownText(value) : undefined;
    },
  };
}
