// A `tool()` call answered by its recorded output in a replay (tools: 'recorded'): the body does
// not run, so the calls the record holds inside it (nested tool() and model calls, the body's
// fetch, clock, random and UUID reads) would never be made again and the replayed cassette
// would lack them. They are given back instead: each is taken from the record and recorded in
// the replayed run as it was, under the served tool's span, in the recorded (seq) order, so the
// cassette digest compares what the agent did outside the tool bodies (docs/guides/replay.md).
import { isoNow } from '../../core/internal-globals.js';
import type { RecordedCall, RecordedCassette } from '../../session/cassette.js';
import type { Scope } from '../../session/context.js';
import { openEvent } from '../../session/event-base.js';
import type { ReplaySource } from '../../session/replay-source.js';
import { spanIdFor } from './call.js';

/** Per cassette: the recorded calls by the span they were made in. */
const byParent = new WeakMap<RecordedCassette, Map<string, RecordedCall[]>>();

function childrenIndex(cassette: RecordedCassette): Map<string, RecordedCall[]> {
  let index = byParent.get(cassette);
  if (index !== undefined) return index;
  index = new Map();
  for (const call of cassette.calls) {
    const parent = call.event['parent_span_id'];
    if (typeof parent !== 'string') continue;
    const list = index.get(parent);
    if (list === undefined) index.set(parent, [call]);
    else list.push(call);
  }
  byParent.set(cassette, index);
  return index;
}

/** The recorded calls made inside `tool`'s body, at any depth, in seq order. */
export function callsInside(cassette: RecordedCassette, tool: RecordedCall): RecordedCall[] {
  const index = childrenIndex(cassette);
  const found: RecordedCall[] = [];
  const spans = [tool.event['span_id']];
  for (let i = 0; i < spans.length; i++) {
    for (const child of index.get(String(spans[i])) ?? []) {
      found.push(child);
      spans.push(child.event['span_id']);
    }
  }
  return found.sort((a, b) => a.seq - b.seq);
}

/** Members every event has, set anew for the replayed run (and the recorded event's hash). */
const PLACE_MEMBERS = new Set([
  '_hash',
  'schema_version',
  'run_id',
  'span_id',
  'parent_span_id',
  'seq',
  'ts_start',
  'ts_end',
  'type',
]);

/**
 * Records in `scope`'s run, as children of `scope` (the served tool call's span), the calls the
 * record holds inside `tool`'s body, each marked served. A call already served elsewhere (a
 * strict replay that answered it by key first) is left out.
 */
export function replayToolBody(source: ReplaySource, tool: RecordedCall, scope: Scope): void {
  const run = scope.run;
  const spans = new Map<unknown, string>([[tool.event['span_id'], scope.spanId]]);
  for (const call of callsInside(source.cassette, tool)) {
    if (!source.serveRecorded(call)) continue;
    const recorded = call.event;
    const seq = run.beginCall();
    const spanId = spanIdFor(seq);
    spans.set(recorded['span_id'], spanId);
    const now = isoNow();
    const event = openEvent(
      {
        runId: run.runId,
        spanId,
        parentSpanId: spans.get(recorded['parent_span_id']) ?? scope.spanId,
        seq,
        tsStart: now,
        tsEnd: now,
      },
      String(recorded['type']),
    );
    for (const name of Object.keys(recorded)) {
      if (!PLACE_MEMBERS.has(name)) event[name] = recorded[name];
    }
    run.emit(event, true);
  }
}
