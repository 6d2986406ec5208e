// Recording the agent's own reasoning notes as `reasoning` events. They enter the event chain
// (so they cannot be edited) but not the cassette: replay does not serve them.
import { argError } from '../../core/errors.js';
import { isoNow } from '../../core/internal-globals.js';
import { currentScope } from '../../session/context.js';
import { eventBase } from '../../session/event-base.js';
import { spanIdFor } from './call.js';

/** Records a reasoning note in the current run; does nothing outside a run. */
export function reasoning(text: string, label?: string): void {
  if (typeof text !== 'string') throw argError('text', 'a string', text);
  if (label !== undefined && typeof label !== 'string') throw argError('label', 'a string', label);
  const scope = currentScope();
  if (scope === undefined) return;
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
      'reasoning',
    ),
    text,
    label: label ?? null,
  });
}
