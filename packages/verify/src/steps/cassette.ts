// Step 5, cassette: the recomputed oracle-stream digest equals manifest.replay.cassette_digest,
// and entry_count is the number of oracle entries (docs/spec.md §4, §5.5). An llm / tool
// entry's output has two readings; the check passes when either reproduces the manifest's
// digest and count, with a note when only the published one does.
import {
  cassetteDigestsByReading,
  ReplayDigestError,
  type CassetteDigest,
  type CassetteDigestsByReading,
  type KnownMemberTexts,
  type OutputReading,
} from '@runback/replay-digest';
import type { VerifyNote } from '../result.js';
import { describe, isObject, StepErrors, type RecordParts, type StepResult } from './context.js';

/** The oracle-stream algorithm this verifier implements. */
export const CASSETTE_ALGORITHM = 'oracle-chain/sha256';

/** The cassette step's result: the notes, and which reading matched (null when none did). */
export interface CassetteStepResult extends StepResult {
  readonly notes: VerifyNote[];
  readonly reading: OutputReading | null;
}

/**
 * Recomputes the cassette digest over the events in seq order and compares it. `known` holds
 * members' canonical texts already at hand (cut from the JSON text); the digest is the same.
 */
export function checkCassette(
  parts: RecordParts,
  known: KnownMemberTexts | null = null,
): CassetteStepResult {
  return checkCassetteWith(parts, (events) => cassetteDigestsByReading(events, known ?? undefined));
}

/**
 * The cassette check with the digests computed by `compute` (called only when there is an
 * events array; it throws a ReplayDigestError for an event that cannot enter the stream), so
 * that a streamed record can supply digests it computed as the events went by.
 */
export function checkCassetteWith(
  parts: RecordParts,
  compute: (events: readonly unknown[]) => CassetteDigestsByReading,
): CassetteStepResult {
  const out = new StepErrors('cassette');
  const reading = compareCassette(parts, compute, out);
  const notes: VerifyNote[] =
    reading === 'published' && out.errors.length === 0
      ? [
          {
            check: 'cassette',
            code: 'CASSETTE_READING_PUBLISHED',
            message:
              'the cassette digest matches only when entry outputs are read as the published implementation reads them (an error wins over a stored output; an absent output stays absent)',
          },
        ]
      : [];
  return { ...out.result(), notes, reading: out.errors.length === 0 ? reading : null };
}

function compareCassette(
  parts: RecordParts,
  compute: (events: readonly unknown[]) => CassetteDigestsByReading,
  out: StepErrors,
): OutputReading | null {
  const { manifest, events } = parts;
  const replay = manifest?.['replay'];
  if (!isObject(replay)) {
    out.add(
      'CASSETTE_NO_REPLAY',
      `expected manifest.replay to be an object, got ${describe(replay)}`,
    );
    return null;
  }
  if (replay['algorithm'] !== undefined && replay['algorithm'] !== CASSETTE_ALGORITHM) {
    out.add(
      'CASSETTE_UNSUPPORTED_ALGORITHM',
      `expected manifest.replay.algorithm "${CASSETTE_ALGORITHM}", got ${describe(replay['algorithm'])}`,
    );
  }
  if (events === null) {
    out.add(
      'CASSETTE_NO_EVENTS',
      'expected an events array to recompute the cassette digest, got none',
    );
    return null;
  }
  let computed: CassetteDigestsByReading;
  try {
    computed = compute(events);
  } catch (err) {
    const index = err instanceof ReplayDigestError ? err.eventIndex : undefined;
    const where = index === undefined ? '' : `event ${index}: `;
    out.add(
      err instanceof ReplayDigestError ? err.code : 'CASSETTE_NOT_HASHABLE',
      where + (err as Error).message,
      index,
    );
    return null;
  }
  const claimedDigest = replay['cassette_digest'];
  const claimedCount = replay['entry_count'];
  const matches = (d: CassetteDigest): boolean =>
    d.digest === claimedDigest && d.entryCount === claimedCount;
  // The seed reading (§4.1) first: it is the one the format states; the published one is the
  // one writers emit (the same digest unless some entry reads differently).
  if (matches(computed.seed)) return 'seed';
  if (matches(computed.published)) return 'published';
  const count = computed.seed.entryCount;
  if (claimedDigest !== computed.seed.digest && claimedDigest !== computed.published.digest) {
    const expected = computed.diverged
      ? `${computed.seed.digest} (or ${computed.published.digest} under the published output reading)`
      : computed.seed.digest;
    out.add(
      'CASSETTE_MISMATCH',
      `expected manifest.replay.cassette_digest to be ${expected}, got ${describe(claimedDigest)}`,
    );
  }
  if (typeof claimedCount !== 'number' || !Number.isInteger(claimedCount)) {
    out.add(
      'CASSETTE_ENTRY_COUNT',
      `expected manifest.replay.entry_count to be the integer ${count} (the number of oracle entries), got ${describe(claimedCount)}`,
    );
  } else if (claimedCount !== count) {
    out.add(
      'CASSETTE_ENTRY_COUNT',
      `expected manifest.replay.entry_count to be ${count} (the number of oracle entries), got ${describe(claimedCount)}`,
    );
  }
  return null;
}
