// The members every event starts with, in the order the format lists them (docs/spec.md §2).
import type { EventBase } from '../core/events.js';

/** Where an event sits in its run. */
export interface EventPlace {
  readonly runId: string;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  readonly seq: number;
  readonly tsStart: string;
  readonly tsEnd: string;
}

/** An event being built: its base members, then the caller's, added in place. */
export type OpenEvent = {
  -readonly [K in Exclude<keyof EventBase, 'metadata' | 'actor'>]: EventBase[K];
} & Record<string, unknown>;

/** The base members of an event of `type`. */
export function eventBase(place: EventPlace, type: string): EventBase {
  return openEvent(place, type);
}

/**
 * The base members of an event of `type`, in an object the caller adds its members to. Events
 * are built this way on the recording path rather than by spreading objects into a literal:
 * one object per event, not one per part (the copies showed in profiles of `pnpm bench` (c)).
 */
export function openEvent(place: EventPlace, type: string): OpenEvent {
  return {
    schema_version: 1,
    run_id: place.runId,
    span_id: place.spanId,
    parent_span_id: place.parentSpanId,
    seq: place.seq,
    ts_start: place.tsStart,
    ts_end: place.tsEnd,
    type,
  };
}
