import { GENESIS_HASH, contentDigestOf, eventHash } from './chain.js';

/**
 * Incremental chain for writers: each `append` hashes one event onto the current head, so a
 * recorder seals as it goes and never re-hashes what it already appended.
 */
export class ChainBuilder {
  #head: string = GENESIS_HASH;
  #count = 0;

  /**
   * Hashes `event` (its `_hash` member ignored) onto the head and returns the new hash, which
   * the writer stores as the event's `_hash`. The event is not modified.
   */
  append(event: object): string {
    this.#head = eventHash(this.#head, event);
    this.#count++;
    return this.#head;
  }

  /** The hash of the last appended event, or "" (h_0) before the first. */
  get head(): string {
    return this.#head;
  }

  /** The content digest so far: the head, or sha256("") with no events. */
  get contentDigest(): string {
    return contentDigestOf(this.#head);
  }

  /** How many events have been appended. */
  get count(): number {
    return this.#count;
  }
}
