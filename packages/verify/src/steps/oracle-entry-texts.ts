// One event's place in the oracle stream, as a cassette accumulator takes it (docs/spec.md
// §4.1, §4.3): its seq as the stable seq sort orders it, and its entry's texts under both
// output readings, or the error that keeps it out of the stream.
import {
  entryTextsByReading,
  ReplayDigestError,
  type EntryTexts,
  type KnownMemberTexts,
} from '@runback/replay-digest';

/** An event's seq as the seq sort orders it: a missing or non-numeric seq (or NaN) sorts last. */
export function seqKey(event: unknown): number {
  const seq = (event as { seq?: unknown } | null)?.seq;
  return typeof seq === 'number' && !Number.isNaN(seq) ? seq : Infinity;
}

/**
 * The texts of the oracle entry of the event at `index`, null for an event that has none, or
 * the error (its eventIndex set to `index`) that cassetteDigestsByReading would throw for it.
 */
export function entryTextsAt(
  event: unknown,
  index: number,
  known: KnownMemberTexts | undefined,
): EntryTexts | Error | null {
  try {
    return entryTextsByReading(event, known, index);
  } catch (err) {
    if (err instanceof ReplayDigestError) err.eventIndex = index;
    return err instanceof Error ? err : new Error(String(err));
  }
}
