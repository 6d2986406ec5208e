import { GENESIS_HASH, contentDigestOf, eventHash, eventHashOfCanonical } from './chain.js';

/**
 * Incremental chain for writers: each `append` hashes one event onto the current head, so a
 * recorder seals as it goes and never re-hashes what it already appended.
 */
export class ChainBuilder {
  #head: string;
  #count: number;

  /**
   * Starts a new chain, or continues one whose head and event count are known (a process that
   * appends to a journal another process began).
   */
  constructor(head: string = GENESIS_HASH, count = 0) {
    if (typeof head !== 'string' || !(head === GENESIS_HASH || /^[0-9a-f]{64}$/.test(head))) {
      throw new TypeError(`head: expected "" or 64 lowercase hex characters, got ${String(head)}`);
    }
    if (!Number.isSafeInteger(count) || count < 0 || (count === 0) !== (head === GENESIS_HASH)) {
      throw new TypeError(
        `count: expected an integer >= 0 that is 0 exactly when head is "", got ${String(count)}`,
      );
    }
    this.#head = head;
    this.#count = count;
  }

  /**
   * Hashes `event` (its `_hash` member ignored) onto the head and returns the new hash, which
   * the writer stores as the event's `_hash`. The event is not modified.
   */
  append(event: object): string {
    this.#head = eventHash(this.#head, event);
    this.#count++;
    return this.#head;
  }

  /**
   * Appends an event given as its canonical text, `_hash` excluded (`canonical(event)` of an
   * event without `_hash`). For writers that need that text anyway, to store it: the event is
   * serialised once, not twice. Returns the new hash.
   */
  appendCanonical(text: string): string {
    if (typeof text !== 'string' || text.charCodeAt(0) !== 0x7b) {
      throw new TypeError(
        `text: expected the canonical text of an event object, got ${typeof text}`,
      );
    }
    this.#head = eventHashOfCanonical(this.#head, text);
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
