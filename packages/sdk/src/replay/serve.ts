// The recording hooks' side of replay: ask the run's replay source about a call about to be
// made, keyed exactly as its event will be stored (redacted first, then projected: docs/spec.md
// §7), and turn a recorded error back into something to throw.
import type { ActiveRun } from '../run/active-run.js';
import type { RecordedCall } from './cassette.js';

/**
 * The recorded call that answers this one, or undefined when the run is not a replay or the
 * call is to go live (live-on-miss). Throws ReplayMissError when a strict or ordered replay has
 * nothing to answer with.
 */
export function servedCall(
  run: ActiveRun,
  live: { kind: string; name: string; key: () => string; input: unknown },
): RecordedCall | undefined {
  if (run.replay === undefined) return undefined;
  const served = run.replay.serve({
    kind: live.kind,
    name: live.name,
    key: live.key(),
    input: live.input,
  });
  return 'call' in served ? served.call : undefined;
}

/** A stored input as it will be keyed: with redaction applied. */
export function keyedInput(run: ActiveRun, value: unknown): unknown {
  return run.replay === undefined ? value : run.redactor.redact(value).value;
}

/** A recorded `{name, message, stack?}` error as an Error to throw in the replayed run. */
export function recordedError(error: unknown): Error {
  const stored = (typeof error === 'object' && error !== null ? error : {}) as Record<
    string,
    unknown
  >;
  const err = new Error(
    typeof stored['message'] === 'string' ? stored['message'] : 'recorded error',
  );
  err.name = typeof stored['name'] === 'string' ? stored['name'] : 'Error';
  // The stack too, exactly as recorded (or none): the replayed event must store the same error.
  err.stack =
    typeof stored['stack'] === 'string' ? stored['stack'] : (undefined as unknown as string);
  return err;
}
