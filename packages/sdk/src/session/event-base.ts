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

/** The base members of an event of `type`. */
export function eventBase(place: EventPlace, type: string): EventBase {
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
