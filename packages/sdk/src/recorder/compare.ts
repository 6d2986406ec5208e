// Proof of reproduction (docs/spec.md §4.3): a replay reproduces its record when the replayed
// run's cassette digest equals the recorded `manifest.replay.cassette_digest` and its output
// equals the recorded output canonically. When it does not, the first divergence is located:
// the first position in the two oracle streams (seq order) where the calls differ.
import { canonical } from '@runback/canonical';
import { diffJson, type JsonChange } from '@runback/diff';
import { RecordedCassette, type RecordedCall } from '../session/cassette.js';
import { recordedInput } from '../session/replay-source.js';

/** Where a replayed run first departs from its record. */
export interface Divergence {
  /** 1-based position in the oracle stream (the n-th model, tool or env call). */
  readonly call: number;
  readonly kind: string;
  readonly name: string;
  /**
   * `request`: the n-th calls were asked different things; `output`: same request, different
   * answer (a call that went live); `missing`: the replay made fewer calls; `extra`: more.
   */
  readonly reason: 'request' | 'output' | 'missing' | 'extra';
  readonly recordedSeq: number | null;
  readonly replayedSeq: number | null;
  readonly input: readonly JsonChange[];
  readonly output: readonly JsonChange[];
}

/** Finds the first call at which two event lists' oracle streams differ, or null. */
export function firstDivergence(
  recorded: readonly unknown[],
  replayed: readonly unknown[],
): Divergence | null {
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
      };
    }
    const outputChanges = diffJson(x.output, y.output);
    if (x.kind === y.kind && x.key === y.key && outputChanges.length === 0) continue;
    // One call inserted or left out, the rest in step: say so, naming that call.
    const same = (call: RecordedCall | undefined, other: RecordedCall) =>
      call !== undefined && call.kind === other.kind && call.key === other.key;
    const inserted = same(b[i + 1], x); // the replay made y, then went on as recorded
    const skipped = same(a[i + 1], y); // the replay left x out
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
    };
  }
  return null;
}

/** Whether two run outputs are equal as the format compares them (canonically). */
export function sameOutput(a: unknown, b: unknown): boolean {
  return canonical(a ?? null) === canonical(b ?? null);
}
