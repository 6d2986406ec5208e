// A `tool()` call answered by its recorded output in a replay (tools: 'recorded'): the body does
// not run, so the calls the record holds inside it (nested tool() and model calls; the body's
// own reads are kept with the tool call: tool-env.ts) would never be made again and the
// replayed cassette would lack them. They are given back instead: each is taken from the record and recorded in
// the replayed run as it was, under the served tool's span, in the recorded (seq) order, so the
// cassette digest compares what the agent did outside the tool bodies (docs/guides/replay.md).
import { isoNow } from '../../core/internal-globals.js';
import type { RecordedCall, RecordedCassette } from '../../session/cassette.js';
import type { Scope } from '../../session/context.js';
import { openEvent } from '../../session/event-base.js';
import type { ReplaySource } from '../../session/replay-source.js';
import { spanIdFor } from './call.js';

/**
 * Per cassette, in seq order: the smallest `index` (completion position) of the calls from each
 * position on. A call made inside a tool's body starts after the tool (a larger seq) and ends
 * before it (a smaller index), so the calls started from position j on can hold one only while
 * this is below the tool's index: the scan for a tool's calls stops there, having read (parsed)
 * no event of a call that ended after the tool. A replay may parse a recorded event each time it
 * is read, so this keeps the cost to the calls that can be inside (none for a body that made no
 * calls), where indexing every call's parent would parse the whole record once more.
 */
const suffixMins = new WeakMap<RecordedCassette, Float64Array>();

function suffixMin(cassette: RecordedCassette): Float64Array {
  let min = suffixMins.get(cassette);
  if (min !== undefined) return min;
  const calls = cassette.calls;
  min = new Float64Array(calls.length + 1);
  min[calls.length] = Infinity;
  for (let j = calls.length - 1; j >= 0; j--) {
    min[j] = Math.min((calls[j] as RecordedCall).index, min[j + 1] as number);
  }
  suffixMins.set(cassette, min);
  return min;
}

/** The position of the call with this seq in `calls` (in seq order), or -1. */
function positionOf(calls: readonly RecordedCall[], seq: number): number {
  let lo = 0;
  let hi = calls.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = (calls[mid] as RecordedCall).seq;
    if (at === seq) return mid;
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A recorded call made inside a tool's body, with its event (read once). */
interface InsideCall {
  readonly call: RecordedCall;
  readonly event: Readonly<Record<string, unknown>>;
}

/**
 * The recorded calls made inside the body of `tool` (whose event is `toolEvent`), at any depth,
 * in seq order. A call is inside when its parent span is the tool's or that of a call inside
 * it; a parent starts before its children, so one pass in seq order finds them all.
 */
function callsInside(
  cassette: RecordedCassette,
  tool: RecordedCall,
  toolEvent: Readonly<Record<string, unknown>>,
): InsideCall[] {
  const calls = cassette.calls;
  const min = suffixMin(cassette);
  const spans = new Set<unknown>([toolEvent['span_id']]);
  const found: InsideCall[] = [];
  const from = positionOf(calls, tool.seq);
  if (from === -1) return found;
  for (let j = from + 1; j < calls.length && (min[j] as number) < tool.index; j++) {
    const call = calls[j] as RecordedCall;
    if (call.index > tool.index) continue; // ended after the tool: not inside it
    const event = call.event;
    if (!spans.has(event['parent_span_id'])) continue; // a concurrent call, not the body's
    found.push({ call, event });
    spans.add(event['span_id']);
  }
  return found;
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
export function replayToolBody(
  source: ReplaySource,
  tool: RecordedCall,
  toolEvent: Readonly<Record<string, unknown>>,
  scope: Scope,
): void {
  const run = scope.run;
  const spans = new Map<unknown, string>([[toolEvent['span_id'], scope.spanId]]);
  for (const { call, event: recorded } of callsInside(source.cassette, tool, toolEvent)) {
    if (!source.serveRecorded(call)) continue;
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
