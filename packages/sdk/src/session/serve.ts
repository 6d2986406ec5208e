// The recording hooks' side of replay: ask the run's replay source about a call about to be
// made, keyed exactly as its event will be stored (redacted first, then projected: docs/spec.md
// §7), and turn a recorded error back into something to throw.
import type { ActiveRun } from './active-run.js';
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

/**
 * A recorded `{name, message, stack?}` error as an Error to throw in the replayed run: an
 * instance of the built-in class its name names (`TypeError`, `RangeError`, …), else an Error
 * carrying that name, with the recorded stack (or none) so that the replayed event stores the
 * same error as the recorded one.
 */
export function replayedError(error: unknown): Error {
  const stored = (typeof error === 'object' && error !== null ? error : {}) as Record<
    string,
    unknown
  >;
  const message = typeof stored['message'] === 'string' ? stored['message'] : 'recorded error';
  const name = typeof stored['name'] === 'string' ? stored['name'] : 'Error';
  const BuiltIn = BUILT_IN_ERRORS.find((type) => type.prototype.name === name);
  const err = BuiltIn === undefined ? new Error(message) : new BuiltIn(message);
  if (BuiltIn === undefined) err.name = name;
  err.stack =
    typeof stored['stack'] === 'string' ? stored['stack'] : (undefined as unknown as string);
  return err;
}

const BUILT_IN_ERRORS: readonly ErrorConstructor[] = [
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
];
