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
  type KnownMemberTexts,
  type OracleEntry,
  type OutputReading,
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

/** An event's seq as seqOrder sorts it: a missing or non-numeric seq (or NaN) sorts last. */
function seqKey(event: unknown): number {
  const seq = (event as { seq?: unknown } | null)?.seq;
  return typeof seq === 'number' && !Number.isNaN(seq) ? seq : Infinity;
}

/** Whether `events` is in seq order already: writers append in seq order, so almost always. */
function inSeqOrder(events: readonly unknown[]): boolean {
  let last = -Infinity;
  for (let i = 0; i < events.length; i++) {
    const seq = seqKey(events[i]);
    if (seq < last) return false;
    last = seq;
  }
  return true;
}

/**
 * The indices of `events` in seq order: a stable sort, so equal seqs keep array order, and a
 * missing or non-numeric seq sorts last (such a record fails the `consistent` check anyway).
 */
export function seqOrder(events: readonly unknown[]): number[] {
  const order = events.map((_, index) => index);
  if (inSeqOrder(events)) return order;
  const seqs = events.map(seqKey);
  return order.sort((a, b) => {
    const sa = seqs[a] as number;
    const sb = seqs[b] as number;
    return sa === sb ? a - b : sa < sb ? -1 : 1;
  });
}

/**
 * The cassette digest over all of a record's events (sorted by seq here). `known` may supply
 * members' canonical texts by event position, sparing their serialization; the digest is the
 * same either way. `reading` is the output reading of llm / tool entries (docs/spec.md §4.1).
 *
 * @throws {ReplayDigestError} for an oracle event that lacks its key material; the error's
 * `eventIndex` names the event's position in `events`.
 */
export function cassetteDigest(
  events: readonly unknown[],
  known?: KnownMemberTexts,
  reading: OutputReading = 'published',
): CassetteDigest {
  // With one reading, both chains of the walk are that reading's.
  const digests =
    digestsInOrder(events, known, null, reading) ??
    digestsInOrder(events, known, seqOrder(events), reading);
  // A walk given an order never gives null.
  return (digests as CassetteDigestsByReading).published;
}

// Writers append in seq order, so the digests first walk the events in array order, checking
// as they go that it is seq order (one pass over the events instead of two); only when it is
// not do they walk them again, sorted. An event that cannot enter the stream is reported from
// the array-order walk only when the whole array is in seq order, so that the error is always
// the one seq order meets first.

/** The cassette digest under each output reading (docs/spec.md §4.1). */
export interface CassetteDigestsByReading {
  readonly published: CassetteDigest;
  readonly seed: CassetteDigest;
  /** Whether any entry reads differently under the two readings (else the digests are equal). */
  readonly diverged: boolean;
}

/**
 * cassetteDigest under both output readings in one pass: the two chains share every step up
 * to the first entry the readings disagree on, so a record where they never do costs one chain.
 *
 * @throws {ReplayDigestError} as {@link cassetteDigest}.
 */
export function cassetteDigestsByReading(
  events: readonly unknown[],
  known?: KnownMemberTexts,
): CassetteDigestsByReading {
  return (
    digestsInOrder(events, known, null, undefined) ??
    (digestsInOrder(events, known, seqOrder(events), undefined) as CassetteDigestsByReading)
  );
}

/**
 * The digests over the events in `order`; with no order, over the array order, giving null as
 * soon as that turns out not to be seq order. With `only`, every entry is read that way and the
 * two chains are one (cassetteDigest); without, under both readings.
 */
function digestsInOrder(
  events: readonly unknown[],
  known: KnownMemberTexts | undefined,
  order: readonly number[] | null,
  only: OutputReading | undefined,
): CassetteDigestsByReading | null {
  let lastSeq = -Infinity;
  let published = '';
  let seed = '';
  let diverged = false;
  let entryCount = 0;
  for (let k = 0; k < events.length; k++) {
    const index = order === null ? k : (order[k] as number);
    const event = events[index];
    if (order === null) {
      const seq = seqKey(event);
      if (seq < lastSeq) return null;
      lastSeq = seq;
    }
    // entryTextsByReading, without an object for each entry's two texts.
    let text: string | null;
    let seedText: string;
    try {
      text = entryText(event, known, index, only ?? 'published');
      if (text === null) continue;
      seedText =
        only === undefined && readingsDiffer(event)
          ? (entryText(event, known, index, 'seed') as string)
          : text;
    } catch (err) {
      if (order === null && !inSeqOrder(events)) return null;
      if (err instanceof ReplayDigestError) err.eventIndex = index;
      throw err;
    }
    entryCount++;
    if (!diverged && seedText === text) {
      published = seed = sha256Hex(published + text);
      continue;
    }
    diverged = true;
    published = sha256Hex(published + text);
    seed = sha256Hex(seed + seedText);
  }
  const digestOf = (head: string): CassetteDigest => ({
    digest: entryCount === 0 ? EMPTY_SHA256 : head,
    entryCount,
  });
  return { published: digestOf(published), seed: digestOf(seed), diverged };
}

/** An oracle entry's canonical text under each output reading (the same string when they agree). */
export interface EntryTexts {
  readonly published: string;
  readonly seed: string;
}

/**
 * The canonical text of an event's oracle entry under both readings, or null for types that
 * have none; the seed text is serialized only when the readings differ for this event.
 *
 * @throws {ReplayDigestError} as oracleEntryOf.
 */
export function entryTextsByReading(
  event: unknown,
  known?: KnownMemberTexts,
  index = -1,
): EntryTexts | null {
  const published = entryText(event, known, index, 'published');
  if (published === null) return null;
  const seed = readingsDiffer(event)
    ? (entryText(event, known, index, 'seed') as string)
    : published;
  return { published, seed };
}

/**
 * Whether an llm / tool event's output reads differently under the two readings (docs/spec.md §4.1): the seed
 * `output ?? {error}` and the published `error ? {error} : output` agree exactly when one of
 * "a stored output" and "a truthy error" holds and the other does not.
 */
function readingsDiffer(event: unknown): boolean {
  const e = event as Record<string, unknown>;
  const member = e['type'] === 'llm' ? 'response' : e['type'] === 'tool' ? 'output' : null;
  if (member === null) return false;
  const stored = e[member];
  return (stored !== null && stored !== undefined) === Boolean(e['error']);
}

/**
 * Incremental cassette digest for writers that append events in seq order (a recorder assigns
 * seq in recording order), so sealing never takes a second pass. Writers emit the published
 * output reading (the default); a verifier may build one per reading.
 */
export class CassetteBuilder {
  #head = '';
  #count = 0;
  #lastSeq = -Infinity;
  readonly #reading: OutputReading;

  constructor(reading: OutputReading = 'published') {
    this.#reading = reading;
  }

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
    const text = entryText(event, known, -1, this.#reading);
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
