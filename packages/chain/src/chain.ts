// The event chain (docs/spec.md §3 "Event chain").
//
//   h_0 = ""                                         (the empty string, not sha256(""))
//   h_i = sha256_hex(h_{i-1} + canonical(event_i))   (event_i without its own _hash member)
//   content_digest = h_n, or sha256("") for a record with no events
//
// Events are hashed in array order, never re-sorted by seq: the array order is what the
// chain commits to.
import { canonicalWithout, EMPTY_SHA256, sha256Hex } from '@runback/canonical';

/** The seed of the event chain: the empty string (h_0). */
export const GENESIS_HASH = '';

/** The member that carries an event's own hash and is excluded from what it hashes. */
export const HASH_MEMBER = '_hash';

/**
 * Hash of one event chained onto `previousHash`: sha256_hex(previousHash + canonical(event
 * without `_hash`)).
 *
 * @throws {TypeError} when `event` is not a non-array object or holds a value with no
 * canonical form (NaN, Infinity, BigInt, a cycle).
 */
export function eventHash(previousHash: string, event: object): string {
  if (typeof previousHash !== 'string') {
    throw new TypeError(
      `eventHash: expected previousHash to be a string, got ${typeof previousHash}`,
    );
  }
  return eventHashOfCanonical(previousHash, canonicalWithout(event, HASH_MEMBER));
}

/**
 * The chain step of §3 for an event whose canonical text (without `_hash`) is already known:
 * sha256_hex(previousHash + canonicalText). A verifier that has proven a stretch of its input
 * to be that text hashes it directly instead of serializing the parsed event again. The caller
 * vouches for `canonicalText`; nothing here checks it.
 */
export function eventHashOfCanonical(previousHash: string, canonicalText: string): string {
  return sha256Hex(previousHash + canonicalText);
}

/** The content digest of a chain whose last hash is `head` ("" for no events). */
export function contentDigestOf(head: string): string {
  return head === GENESIS_HASH ? EMPTY_SHA256 : head;
}
