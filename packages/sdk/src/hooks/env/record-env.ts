// Recording one environment read as an `env` event (docs/spec.md §4.4 and §5: now, date,
// random, uuid and clock are keyed by their kind name; fetch by a hash of the request).
import { isoNow } from '../../core/internal-globals.js';
import { currentScope, type Scope } from '../../session/context.js';
import { eventBase } from '../../session/event-base.js';
import { spanIdFor } from '../spans/call.js';
import type { EnvKind } from '../../core/events.js';
import type { CaptureSettings } from '../../session/capture-settings.js';

/**
 * The scope an environment read of `switchName` is recorded in as an env event, or undefined
 * when it is not: outside a run, in a run without that capture, inside a model call (the call's
 * answer is what replay serves, so what the client reads while it calls stays inside it), or
 * inside a tool call, whose body's reads are kept with the tool call instead
 * (hooks/spans/tool-env.ts). A model API call made through fetch inside a tool body
 * (`providers`) is recorded there, as a model call of its own, under the tool's span.
 */
export function captureScope(switchName: keyof CaptureSettings): Scope | undefined {
  const scope = currentScope();
  if (scope === undefined || !scope.run.capture[switchName]) return undefined;
  if (scope.kind === 'run') return scope;
  return scope.kind === 'tool' && switchName === 'providers' ? scope : undefined;
}

/** Where an env read sits: a seq taken when an asynchronous read (fetch) started, or now. */
export interface EnvReadPlace {
  /** From `run.beginCall()` for a read that took time; absent for an instant read. */
  readonly callSeq?: number;
  readonly tsStart?: string;
  /** Members stored between `key` and `output` (a fetch's method and url). */
  readonly extra?: Record<string, unknown>;
}

/** Emits an env event in `scope`. */
export function emitEnv(
  scope: Scope,
  kind: EnvKind,
  key: string,
  output: unknown,
  place: EnvReadPlace = {},
): void {
  const seq = place.callSeq ?? scope.run.nextSeq();
  const now = isoNow();
  scope.run.emit(
    {
      ...eventBase(
        {
          runId: scope.run.runId,
          spanId: spanIdFor(seq),
          parentSpanId: scope.spanId,
          seq,
          tsStart: place.tsStart ?? now,
          tsEnd: now,
        },
        'env',
      ),
      kind,
      key,
      ...place.extra,
      output,
    },
    place.callSeq !== undefined,
  );
}
