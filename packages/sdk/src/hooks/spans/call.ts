// A model or tool call in flight: its seq and span id are taken when it starts (replay serves
// equal keys in call order), its event is emitted when it ends.
import { parseKeyProjection } from '@runback/replay-digest';
import { argError } from '../../core/errors.js';
import type { KeyProjectionSpec } from '../../core/events.js';
import { isoNow, monotonicMs } from '../../core/internal-globals.js';
import { currentScope, type Scope } from '../../session/context.js';
import type { EventPlace } from '../../session/event-base.js';

/** A call that has started and not yet been recorded. */
export interface OpenCall {
  /** The scope code inside the call runs in (its span is the parent of nested calls). */
  readonly scope: Scope;
  readonly seq: number;
  readonly tsStart: string;
  readonly startMs: number;
  readonly parentSpanId: string;
}

/**
 * Waits, before a call starts, while the current run's sink is full (an HttpSink whose buffer
 * is at its bound): back-pressure slows the agent instead of dropping events. Outside a run, or
 * with room in the sink, it returns at once.
 */
export async function waitForSinkRoom(): Promise<void> {
  const full = currentScope()?.run.writable();
  if (full !== undefined) await full;
}

/** Span ids are unique within a run: `s` + the call's seq. */
export function spanIdFor(seq: number): string {
  return `s${seq}`;
}

/** Starts a call of `kind` under `parent`. */
export function openCall(parent: Scope, kind: 'llm' | 'tool'): OpenCall {
  const seq = parent.run.beginCall();
  return {
    scope: { run: parent.run, spanId: spanIdFor(seq), kind },
    seq,
    tsStart: isoNow(),
    startMs: monotonicMs(),
    parentSpanId: parent.spanId,
  };
}

/** Where the call's event sits, ending now. */
export function callPlace(call: OpenCall): EventPlace {
  return {
    runId: call.scope.run.runId,
    spanId: call.scope.spanId,
    parentSpanId: call.parentSpanId,
    seq: call.seq,
    tsStart: call.tsStart,
    tsEnd: isoNow(),
  };
}

/**
 * Checks a call's key projection when the call starts. A malformed one would otherwise fail
 * only when the event is sealed, after it has entered the chain, and break the whole run.
 */
export function checkKeyProjection(name: string, projection: KeyProjectionSpec | undefined): void {
  try {
    parseKeyProjection(projection);
  } catch {
    throw argError(name, '{ keep?: string[], drop?: string[] }', projection);
  }
}
