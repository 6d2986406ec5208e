// Step 3, chain: every event's stored _hash equals the recomputed h_i (docs/spec.md §3).
import {
  contentDigestOf,
  eventHash,
  eventHashOfCanonical,
  GENESIS_HASH,
  HASH_MEMBER,
} from '@runback/chain';
import { isObject, StepErrors, type RecordParts } from './context.js';
import type { StepResult } from './context.js';

/** The chain step's result, plus the recomputed content digest for the digest step. */
export interface ChainStepResult extends StepResult {
  /** h_n (sha256("") for no events), or null when the chain could not be computed. */
  readonly contentDigest: string | null;
}

/** Events' canonical texts (without `_hash`) already at hand, by position; undefined if not. */
export interface KnownEventTexts {
  eventText(index: number): string | undefined;
}

/**
 * Recomputes the chain in array order and reports the first event whose _hash differs. An
 * event whose canonical text `known` holds is hashed from it, any other is serialized.
 */
export function checkChain(
  parts: RecordParts,
  known: KnownEventTexts | null = null,
): ChainStepResult {
  const out = new StepErrors('chain');
  const { events } = parts;
  if (events === null) {
    out.add('CHAIN_NO_EVENTS', 'expected an events array to recompute the chain, got none');
    return { ...out.result(), contentDigest: null };
  }
  let head = GENESIS_HASH;
  let reported = false;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (!isObject(event)) {
      out.add(
        'CHAIN_NOT_HASHABLE',
        `expected event ${i} to be an object to hash, got something else`,
        i,
      );
      return { ...out.result(), contentDigest: null };
    }
    const text = known?.eventText(i);
    let hash: string;
    try {
      hash = text === undefined ? eventHash(head, event) : eventHashOfCanonical(head, text);
    } catch (err) {
      out.add(
        'CHAIN_NOT_HASHABLE',
        `event ${i} has no canonical form: ${(err as Error).message}`,
        i,
      );
      return { ...out.result(), contentDigest: null };
    }
    head = hash;
    if (!reported && event[HASH_MEMBER] !== hash) {
      reported = true;
      out.add(
        'CHAIN_HASH_MISMATCH',
        `expected event ${i} _hash to be ${hash}, got ${typeof event[HASH_MEMBER] === 'string' ? event[HASH_MEMBER] : 'no hash'} (the event or one before it was changed)`,
        i,
      );
    }
  }
  return { ...out.result(), contentDigest: contentDigestOf(head) };
}
