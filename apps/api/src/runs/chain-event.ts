// Chaining one event onto a run's head (docs/spec.md §3) and its stored text: the event with
// its `_hash`, in canonical form (§7), so an export can be streamed from the stored texts.
import { canonical } from '@runback/canonical';
import { eventHashOfCanonical, HASH_MEMBER } from '@runback/chain';

/** The new head and the stored text of an event chained onto `head`. */
export interface ChainedEvent {
  readonly hash: string;
  readonly body: string;
}

/** Chains `event` (any `_hash` it carries is dropped and recomputed) onto `head`. */
export function chainEvent(head: string, event: Record<string, unknown>): ChainedEvent {
  const bare: Record<string, unknown> = { ...event };
  delete bare[HASH_MEMBER];
  const text = canonical(bare);
  const hash = eventHashOfCanonical(head, text);
  // `_hash` goes where canonical order puts it; when it sorts first (the usual case: member
  // names are lowercase) the text is spliced, otherwise the event is serialized again.
  const first = Object.keys(bare).every((name) => name > HASH_MEMBER);
  const body = first
    ? `{"${HASH_MEMBER}":"${hash}"${text === '{}' ? '' : ','}${text.slice(1)}`
    : canonical({ ...bare, [HASH_MEMBER]: hash });
  return { hash, body };
}
