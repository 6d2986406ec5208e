// Step 2 of sealing: each event's `_hash` by the event chain, in array order (docs/spec.md §3),
// and the content digest. Any `_hash` already present is recomputed, never trusted.
import { ChainBuilder } from '@runback/chain';
import { describeValue } from '../errors.js';
import { isPlainObject, recordInvalid, relocate } from './json-data.js';
import type { SealedEvent } from './types.js';

/** The chained events (JSON copies, `_hash` set) and the content digest. */
export function chainEvents(input: readonly unknown[]): {
  readonly events: SealedEvent[];
  readonly contentDigest: string;
} {
  const chain = new ChainBuilder();
  const seen = new Set<number>();
  const events: SealedEvent[] = [];
  input.forEach((event: unknown, index) => {
    if (!isPlainObject(event)) {
      throw recordInvalid(`expected events[${index}] to be an object, got ${describeValue(event)}`);
    }
    // A writer refuses what a verifier would reject in the `consistent` check (docs/spec.md
    // §5.2), and the cassette's seq order must be well defined.
    const seq = event['seq'];
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
      throw recordInvalid(
        `expected events[${index}].seq to be an integer >= 0, got ${describeValue(seq)}`,
      );
    }
    if (seen.has(seq)) {
      throw recordInvalid(`expected events[${index}].seq to be unique, got ${seq} a second time`);
    }
    seen.add(seq);
    let hash: string;
    try {
      hash = chain.append(event);
    } catch (err) {
      throw relocate(err, `/events/${index}`);
    }
    // Hashed first, so the copy below can only meet values canonical() accepted.
    events.push(storedEvent(event, hash));
  });
  return { events, contentDigest: chain.contentDigest };
}

/**
 * The stored event (docs/spec.md §7): a JSON copy of the data canonical() hashed, the event's own
 * members in canonical order (`_hash` first), each value keeping the member order it was given
 * in, since member order inside a value is what its producer saw and hands back in a replay.
 */
function storedEvent(event: Readonly<Record<string, unknown>>, hash: string): SealedEvent {
  const members: Record<string, unknown> = { ...event, _hash: hash };
  let text = '{';
  for (const name of Object.keys(members).sort()) {
    const value = JSON.stringify(members[name]) as string | undefined;
    if (value === undefined) continue; // undefined, a function or a symbol: omitted, as hashed
    text += `${text.length === 1 ? '' : ','}${JSON.stringify(name)}:${value}`;
  }
  return JSON.parse(`${text}}`) as SealedEvent;
}
