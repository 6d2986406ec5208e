// The cassette digest (docs/spec.md §4.3): a second chain, independent of the event chain,
// over the oracle entries in seq order.
//
//   c_0 = ""
//   c_j = sha256_hex(c_{j-1} + canonical({ kind, key, output }))
//   cassette_digest = c_m, or sha256("") with no entries; entry_count = m
import { EMPTY_SHA256, canonical, sha256Hex } from '@runback/canonical';
import { ReplayDigestError } from './errors.js';
import {
  entryText,
  oracleEntryText,
  type KnownMemberTexts,
  type OracleEntry,
} from './oracle-entry.js';

/** The cassette digest of a record and its number of oracle entries. */
export interface CassetteDigest {
  readonly digest: string;
  readonly entryCount: number;
}

/** One step of the oracle chain: sha256_hex(previous + canonical({kind, key, output})). */
export function cassetteStep(previous: string, entry: OracleEntry): string {
  return sha256Hex(previous + canonical(entry));
}

/**
 * The indices of `events` in seq order: a stable sort, so equal seqs keep array order, and a
 * missing or non-numeric seq sorts last (such a record fails the `consistent` check anyway).
 */
export function seqOrder(events: readonly unknown[]): number[] {
  const seqs = events.map((event) => {
    const seq = (event as { seq?: unknown } | null)?.seq;
    return typeof seq === 'number' && !Number.isNaN(seq) ? seq : Infinity;
  });
  // Writers append in seq order, so the array is almost always sorted already.
  let sorted = true;
  for (let i = 1; i < seqs.length && sorted; i++)
    sorted = (seqs[i - 1] as number) <= (seqs[i] as number);
  if (sorted) return events.map((_, index) => index);
  return events
    .map((_, index) => index)
    .sort((a, b) => {
      const sa = seqs[a] as number;
      const sb = seqs[b] as number;
      return sa === sb ? a - b : sa < sb ? -1 : 1;
    });
}

/**
 * The cassette digest over all of a record's events (sorted by seq here). `known` may supply
 * members' canonical texts by event position, sparing their serialization; the digest is the
 * same either way.
 *
 * @throws {ReplayDigestError} for an oracle event that lacks its key material; the error's
 * `eventIndex` names the event's position in `events`.
 */
export function cassetteDigest(
  events: readonly unknown[],
  known?: KnownMemberTexts,
): CassetteDigest {
  let head = '';
  let entryCount = 0;
  for (const index of seqOrder(events)) {
    let text: string | null;
    try {
      text = entryText(events[index], known, index);
    } catch (err) {
      if (err instanceof ReplayDigestError) err.eventIndex = index;
      throw err;
    }
    if (text === null) continue;
    head = sha256Hex(head + text);
    entryCount++;
  }
  return { digest: entryCount === 0 ? EMPTY_SHA256 : head, entryCount };
}

/**
 * Incremental cassette digest for writers that append events in seq order (a recorder assigns
 * seq in recording order), so sealing never takes a second pass.
 */
export class CassetteBuilder {
  #head = '';
  #count = 0;
  #lastSeq = -Infinity;

  /**
   * Adds one event (any type; only llm, tool and env enter the stream).
   *
   * @throws {ReplayDigestError} CASSETTE_OUT_OF_ORDER when seq decreases, or as oracleEntryOf.
   */
  add(event: unknown, known?: KnownMemberTexts): void {
    const seq = (event as { seq?: unknown } | null)?.seq;
    if (typeof seq !== 'number' || !(seq >= this.#lastSeq)) {
      throw new ReplayDigestError(
        'CASSETTE_OUT_OF_ORDER',
        `expected seq to be a number >= ${this.#lastSeq}, got ${typeof seq === 'number' ? seq : typeof seq}`,
      );
    }
    this.#lastSeq = seq;
    // `known` (a writer's member texts, asked with index -1) spares serializing them again.
    const text = known === undefined ? oracleEntryText(event) : entryText(event, known, -1);
    if (text === null) return;
    this.#head = sha256Hex(this.#head + text);
    this.#count++;
  }

  /** The cassette digest so far (sha256("") before the first entry). */
  get digest(): string {
    return this.#count === 0 ? EMPTY_SHA256 : this.#head;
  }

  /** How many oracle entries have been added. */
  get entryCount(): number {
    return this.#count;
  }
}
