// Step 2 of sealing: each event's `_hash` by the event chain, in array order (docs/spec.md §3),
// and the content digest. Any `_hash` already present is recomputed, never trusted.
import { canonicalOrder } from '@runback/canonical';
import { ChainBuilder } from '@runback/chain';
import { describeValue } from '../errors.js';
import { isPlainObject, recordInvalid, relocate } from './json-data.js';
import type { SealedEvent } from './types.js';

/** The chained events (JSON copies in canonical member order) and the content digest. */
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
    // Hashed first, so the copy below can only meet values canonical() accepted. The stored
    // event is a JSON copy with its members in canonical order (`_hash` first): the data model
    // canonical() hashed, laid out so that a verifier can hash it with one native stringify
    // (docs/spec.md §7).
    events.push(canonicalOrder({ ...event, _hash: hash }));
  });
  return { events, contentDigest: chain.contentDigest };
}
