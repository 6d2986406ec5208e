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

/**
 * Events' canonical texts (without `_hash`) or chain hashes already at hand (computed from the
 * JSON text), by position; undefined when not known (then the event is serialized).
 */
export interface KnownEventTexts {
  eventText(index: number): string | undefined;
  /** h_index = sha256_hex(previous + canonical(event without _hash)), if known for `previous`. */
  eventHash?(index: number, previous: string): string | undefined;
}

/**
 * Recomputes the chain in array order and reports the first event whose _hash differs. An
 * event whose hash or canonical text `known` holds is taken from it, any other is serialized.
 */
export function checkChain(
  parts: RecordParts,
  known: KnownEventTexts | null = null,
): ChainStepResult {
  const { events } = parts;
  const chain = new ChainAccumulator();
  if (events === null) return chain.result(false);
  for (let i = 0; i < events.length; i++) {
    const hash = known?.eventHash?.(i, chain.head);
    const text = hash === undefined ? known?.eventText(i) : undefined;
    if (!chain.add(events[i], i, text, hash)) break;
  }
  return chain.result(true);
}

/** The chain step one event at a time (a streamed record is never held whole). */
export class ChainAccumulator {
  readonly #out = new StepErrors('chain');
  #head = GENESIS_HASH;
  #reported = false;
  #broken = false;

  /** The chain hash so far (h_0 = "" before the first event). */
  get head(): string {
    return this.#head;
  }

  /**
   * Hashes the event at `index` (events come in array order, from 0), from `text` (its
   * canonical form without _hash) when given, or takes `known` (its hash onto the current
   * head, computed elsewhere from the same canonical form). Returns false once the chain
   * cannot go on.
   */
  add(event: unknown, index: number, text?: string, known?: string): boolean {
    if (this.#broken) return false;
    if (!isObject(event)) {
      this.#out.add(
        'CHAIN_NOT_HASHABLE',
        `expected event ${index} to be an object to hash, got something else`,
        index,
      );
      this.#broken = true;
      return false;
    }
    let hash: string;
    try {
      hash =
        known ??
        (text === undefined
          ? eventHash(this.#head, event)
          : eventHashOfCanonical(this.#head, text));
    } catch (err) {
      this.#out.add(
        'CHAIN_NOT_HASHABLE',
        `event ${index} has no canonical form: ${(err as Error).message}`,
        index,
      );
      this.#broken = true;
      return false;
    }
    this.#head = hash;
    if (!this.#reported && event[HASH_MEMBER] !== hash) {
      this.#reported = true;
      this.#out.add(
        'CHAIN_HASH_MISMATCH',
        `expected event ${index} _hash to be ${hash}, got ${typeof event[HASH_MEMBER] === 'string' ? event[HASH_MEMBER] : 'no hash'} (the event or one before it was changed)`,
        index,
      );
    }
    return true;
  }

  /** The step's result; `hadEvents` false when the record has no events array. */
  result(hadEvents: boolean): ChainStepResult {
    if (!hadEvents) {
      this.#out.add('CHAIN_NO_EVENTS', 'expected an events array to recompute the chain, got none');
      return { ...this.#out.result(), contentDigest: null };
    }
    return {
      ...this.#out.result(),
      contentDigest: this.#broken ? null : contentDigestOf(this.#head),
    };
  }
}
