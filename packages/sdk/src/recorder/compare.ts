// Proof of reproduction (docs/spec.md §4.3): a replay reproduces its record when the replayed
// run's cassette digest equals the recorded `manifest.replay.cassette_digest` and its output
// equals the recorded output canonically. When it does not, the first divergence is located:
// the first position in the two oracle streams (seq order) where the calls differ. A call the
// replay could not answer (a replay miss) is the divergence when there is one: the agent was
// stopped there, whatever the positions say (a shifted stream would otherwise read as some
// unrelated "extra" call); where the streams first departed is reported beside it.
import { canonical } from '@runback/canonical';
import { diffJson, type JsonChange } from '@runback/diff';
import { RecordedCassette, type RecordedCall } from '../session/cassette.js';
import { recordedInput } from '../session/replay-source.js';
import { runMissMessage, stoppingMiss } from './stopping-miss.js';
import { isObject } from '../core/values.js';

/** Where a replayed run first departs from its record. */
export interface Divergence {
  /** 1-based position in the oracle stream (the n-th model, tool or env call). */
  readonly call: number;
  readonly kind: string;
  readonly name: string;
  /**
   * `request`: the n-th calls were asked different things; `output`: same request, different
   * answer (a call that went live); `missing`: the replay made fewer calls; `extra`: more;
   * `miss`: the replay made a call no recorded call answers, and the agent was failed there;
   * `moved`: the replay made a recorded call (same kind, key and answer) at another point of the
   * stream — `call` is where the replay made it, `nearest` where the record holds it.
   */
  readonly reason: 'request' | 'output' | 'missing' | 'extra' | 'miss' | 'moved';
  readonly recordedSeq: number | null;
  readonly replayedSeq: number | null;
  /** The request's differences from the recorded call (for a miss: from `nearest`). */
  readonly input: readonly JsonChange[];
  readonly output: readonly JsonChange[];
  /**
   * For a miss: the recorded call the missed one was compared with (its 1-based position in the
   * record's stream and its seq, as `recordedSeq`); null when the record had no call of that
   * kind left. For a moved call: where the record holds it. Null for other reasons.
   */
  readonly nearest: { readonly call: number; readonly seq: number } | null;
  /**
   * What the agent was told when a replay miss stopped it (also when no call event holds it);
   * for a missing call recorded inside a tool's body, why it was not made again.
   */
  readonly message: string | null;
  /** For a miss: the first position where the two streams differ, when that is an earlier call. */
  readonly departure: Omit<Divergence, 'departure'> | null;
}

/** Finds where a replayed run first departs from its record (a replay miss first), or null. */
export function firstDivergence(
  recorded: readonly unknown[],
  replayed: readonly unknown[],
): Divergence | null {
  const positional = positionalDivergence(recorded, replayed);
  const miss = stoppingMiss(recorded, replayed);
  if (miss !== null) {
    return {
      call: miss.call,
      kind: miss.kind,
      name: miss.name,
      reason: 'miss',
      recordedSeq: miss.nearest?.seq ?? null,
      replayedSeq: miss.replayedSeq,
      input: miss.input,
      output: [],
      nearest: miss.nearest,
      message: miss.message,
      departure:
        positional !== null && positional.call < miss.call
          ? { ...positional, message: null }
          : null,
    };
  }
  if (positional === null) return null;
  const message =
    runMissMessage(replayed) ??
    (positional.reason === 'missing'
      ? insideToolBody(recorded, positional.recordedSeq, toolsRanLive(replayed))
      : null);
  return { ...positional, message, departure: null };
}

/** Whether the replayed run ran `tool()` bodies live (its run-start `metadata.replay_of.tools`). */
function toolsRanLive(replayed: readonly unknown[]): boolean {
  const start = replayed.find((e) => isObject(e) && e['type'] === 'run' && e['phase'] === 'start');
  const metadata = isObject(start) ? start['metadata'] : undefined;
  const of = isObject(metadata) ? metadata['replay_of'] : undefined;
  return isObject(of) && of['tools'] === 'live';
}

/**
 * Why a recorded call was not made again when it sits inside a tool's body: the body ran live
 * and did not make it (a replay that serves recorded outputs gives such calls back as recorded:
 * hooks/spans/tool-body.ts).
 */
function insideToolBody(
  recorded: readonly unknown[],
  seq: number | null,
  live: boolean,
): string | null {
  if (!live) return null;
  if (seq === null) return null;
  const events = recorded.filter(isObject);
  const event = events.find((e) => e['seq'] === seq);
  const parent = event?.['parent_span_id'];
  const tool = events.find((e) => e['type'] === 'tool' && e['span_id'] === parent);
  if (tool === undefined) return null;
  return `the record holds this call inside the body of tool "${String(tool['tool_name'])}" (seq ${String(tool['seq'])}); the body ran live in this replay (tools: live) and did not make it`;
}

/** The first call at which two event lists' oracle streams differ, position by position. */
function positionalDivergence(
  recorded: readonly unknown[],
  replayed: readonly unknown[],
): Omit<Divergence, 'message' | 'departure'> | null {
  const a = new RecordedCassette(recorded).calls;
  const b = new RecordedCassette(replayed).calls;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) {
      const only = (x ?? y) as RecordedCall;
      return {
        call: i + 1,
        kind: only.kind,
        name: only.name,
        reason: x === undefined ? 'extra' : 'missing',
        recordedSeq: x?.seq ?? null,
        replayedSeq: y?.seq ?? null,
        input: [],
        output: [],
        nearest: null,
      };
    }
    const outputChanges = diffJson(x.output, y.output);
    if (x.kind === y.kind && x.key === y.key && outputChanges.length === 0) continue;
    // One call inserted or left out, the rest in step: say so, naming that call.
    const same = (call: RecordedCall | undefined, other: RecordedCall) =>
      call !== undefined && call.kind === other.kind && call.key === other.key;
    const inserted = same(b[i + 1], x); // the replay made y, then went on as recorded
    const skipped = same(a[i + 1], y); // the replay left x out
    // Or a call the record holds at another point (a read whose place an interleaving changed).
    const moved = movedCall(a, b, i);
    if (moved !== null) return moved;
    if (inserted || skipped) {
      const only = inserted ? y : x;
      return {
        call: i + 1,
        kind: only.kind,
        name: only.name,
        reason: inserted ? 'extra' : 'missing',
        recordedSeq: inserted ? null : x.seq,
        replayedSeq: inserted ? y.seq : null,
        input: [],
        output: [],
        nearest: null,
      };
    }
    return {
      call: i + 1,
      kind: x.kind,
      name: x.name,
      reason: x.kind === y.kind && x.key === y.key ? 'output' : 'request',
      recordedSeq: x.seq,
      replayedSeq: y.seq,
      input: diffJson(recordedInput(x), recordedInput(y)),
      output: outputChanges,
      nearest: null,
    };
  }
  return null;
}

/**
 * The first stream difference at position `i` as a moved call, when it is one: the replay's call
 * there is one the record holds later (it came earlier in the replay), or the record's call there
 * is one the replay made later. Identity is kind, key and answer, so a UUID read moved is its
 * value found elsewhere, not merely another read of the same kind.
 */
function movedCall(
  a: readonly RecordedCall[],
  b: readonly RecordedCall[],
  i: number,
): Omit<Divergence, 'message' | 'departure'> | null {
  const x = a[i] as RecordedCall;
  const y = b[i] as RecordedCall;
  const sameCall = (p: RecordedCall, q: RecordedCall) =>
    p.kind === q.kind &&
    p.key === q.key &&
    canonical(p.output ?? null) === canonical(q.output ?? null);
  const later = (list: readonly RecordedCall[], target: RecordedCall) => {
    for (let j = i + 1; j < list.length; j++)
      if (sameCall(list[j] as RecordedCall, target)) return j;
    return -1;
  };
  // The replay made y early, or x late; one step is a call inserted or left out (the streams
  // shifted by it), which is reported as extra or missing.
  const shifted = (j: number) => (j === i + 1 ? -1 : j);
  const inRecord = shifted(later(a, y));
  const inReplay = inRecord === -1 ? shifted(later(b, x)) : -1;
  if (inRecord === -1 && inReplay === -1) return null;
  const [call, recordedAt, replayedAt, at] =
    inRecord !== -1
      ? [y, a[inRecord] as RecordedCall, y, { call: i + 1, recorded: inRecord + 1 }]
      : [x, x, b[inReplay] as RecordedCall, { call: inReplay + 1, recorded: i + 1 }];
  return {
    call: at.call,
    kind: call.kind,
    name: call.name,
    reason: 'moved',
    recordedSeq: recordedAt.seq,
    replayedSeq: replayedAt.seq,
    input: [],
    output: [],
    nearest: { call: at.recorded, seq: recordedAt.seq },
  };
}

/** Whether two run outputs are equal as the format compares them (canonically). */
export function sameOutput(a: unknown, b: unknown): boolean {
  return canonical(a ?? null) === canonical(b ?? null);
}
