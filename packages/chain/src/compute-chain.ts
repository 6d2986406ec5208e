import { GENESIS_HASH, HASH_MEMBER, contentDigestOf, eventHash } from './chain.js';

/** The recomputed chain of a record's events, and where it first disagrees with the record. */
export interface ChainResult {
  /** Recomputed h_1..h_n, one per event, in array order. */
  readonly hashes: readonly string[];
  /** h_n, or sha256("") for no events. */
  readonly contentDigest: string;
  /** Index of the first event whose stored `_hash` differs from the recomputed one, or null. */
  readonly firstMismatch: number | null;
}

/**
 * Recomputes the chain over `events` (array order) and compares each recomputed hash with the
 * event's stored `_hash`. Each hash chains onto the recomputed previous hash, never the stored
 * one, so one edited event breaks its own hash and every hash after it.
 *
 * @throws {TypeError} when an event is not an object or holds a value with no canonical form.
 */
export function computeChain(events: readonly unknown[]): ChainResult {
  const hashes: string[] = new Array<string>(events.length);
  let head = GENESIS_HASH;
  let firstMismatch: number | null = null;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (event === null || typeof event !== 'object' || Array.isArray(event)) {
      throw new TypeError(
        `computeChain: expected event ${i} to be an object, got ${event === null ? 'null' : Array.isArray(event) ? 'an array' : typeof event}`,
      );
    }
    head = eventHash(head, event);
    hashes[i] = head;
    if (firstMismatch === null && (event as Record<string, unknown>)[HASH_MEMBER] !== head) {
      firstMismatch = i;
    }
  }
  return { hashes, contentDigest: contentDigestOf(head), firstMismatch };
}
