// An event that starts and ends at the same instant (a reasoning note, a declared artifact):
// one seq, one span under the current one, ts_start = ts_end. Outside a run nothing is emitted.
import { isoNow } from '../../core/internal-globals.js';
import { currentScope } from '../../session/context.js';
import { eventBase } from '../../session/event-base.js';
import { spanIdFor } from './call.js';

/** Emits `type` with `members` in the current run; returns false when there is no run. */
export function emitInstantEvent(
  type: string,
  members: Readonly<Record<string, unknown>>,
): boolean {
  const scope = currentScope();
  if (scope === undefined) return false;
  const seq = scope.run.nextSeq();
  const now = isoNow();
  scope.run.emit({
    ...eventBase(
      {
        runId: scope.run.runId,
        spanId: spanIdFor(seq),
        parentSpanId: scope.spanId,
        seq,
        tsStart: now,
        tsEnd: now,
      },
      type,
    ),
    ...members,
  });
  return true;
}
