// Step 5, cassette: the recomputed oracle-stream digest equals manifest.replay.cassette_digest,
// and entry_count, when present, is the number of oracle entries (docs/spec.md §4).
import { cassetteDigest, ReplayDigestError, type KnownMemberTexts } from '@runback/replay-digest';
import { describe, isObject, StepErrors, type RecordParts, type StepResult } from './context.js';

/** The oracle-stream algorithm this verifier implements. */
export const CASSETTE_ALGORITHM = 'oracle-chain/sha256';

/**
 * Recomputes the cassette digest over the events in seq order and compares it. `known` holds
 * members' canonical texts already at hand (cut from the JSON text); the digest is the same.
 */
export function checkCassette(
  parts: RecordParts,
  known: KnownMemberTexts | null = null,
): StepResult {
  const out = new StepErrors('cassette');
  const { manifest, events } = parts;
  const replay = manifest?.['replay'];
  if (!isObject(replay)) {
    out.add(
      'CASSETTE_NO_REPLAY',
      `expected manifest.replay to be an object, got ${describe(replay)}`,
    );
    return out.result();
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
    return out.result();
  }
  let computed: { digest: string; entryCount: number };
  try {
    computed = cassetteDigest(events, known ?? undefined);
  } catch (err) {
    const index = err instanceof ReplayDigestError ? err.eventIndex : undefined;
    const where = index === undefined ? '' : `event ${index}: `;
    out.add(
      err instanceof ReplayDigestError ? err.code : 'CASSETTE_NOT_HASHABLE',
      where + (err as Error).message,
      index,
    );
    return out.result();
  }
  if (replay['cassette_digest'] !== computed.digest) {
    out.add(
      'CASSETTE_MISMATCH',
      `expected manifest.replay.cassette_digest to be ${computed.digest}, got ${describe(replay['cassette_digest'])}`,
    );
  }
  if (replay['entry_count'] !== undefined && replay['entry_count'] !== computed.entryCount) {
    out.add(
      'CASSETTE_ENTRY_COUNT',
      `expected manifest.replay.entry_count to be ${computed.entryCount} (the number of oracle entries), got ${describe(replay['entry_count'])}`,
    );
  }
  return out.result();
}
