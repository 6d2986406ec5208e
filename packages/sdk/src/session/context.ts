// Which run and span the code running now belongs to. AsyncLocalStorage carries it through
// awaits, timers and callbacks, so nested calls need no plumbing and concurrent runs in one
// process never mix. A process-wide scope (set only by the `runback record` preload) is the
// fallback when no run is active in the async context.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ActiveRun } from './active-run.js';
import type { ReplaySource } from './replay-source.js';

/** The recording context of the code running now. */
export interface Scope {
  readonly run: ActiveRun;
  /** The span new events are children of. */
  readonly spanId: string;
  /**
   * What kind of span this is: the run itself, a model or tool call in it, or the runtime
   * answering an environment read (a fetch), whose own clock reads are not the agent's.
   */
  readonly kind: 'run' | 'llm' | 'tool' | 'env';
  /**
   * Set while an instrumented client's own (custom) fetch runs: a model call that reaches the
   * global fetch from there is recorded at the wire, as that fetch sent it (providers/
   * recording-fetch.ts), and `seen` says that it was.
   */
  readonly wire?: { seen: boolean };
}

const storage = new AsyncLocalStorage<Scope>();
let processScope: Scope | undefined;

/** The scope of the code running now, or undefined outside any recorded run. */
export function currentScope(): Scope | undefined {
  const scope = storage.getStore() ?? processScope;
  return scope !== undefined && !scope.run.ended ? scope : undefined;
}

/** Runs `fn` with `scope` as the current scope (and everything it starts, awaits included). */
export function runInScope<T>(scope: Scope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** Makes `scope` the fallback for code outside any run's async context (preload only). */
export function setProcessScope(scope: Scope | undefined): void {
  processScope = scope;
}

let replaySource: ReplaySource | undefined;

/**
 * The replay source the `RUNBACK_REPLAY` preload set for this process: every run started here
 * answers its calls from it.
 */
export function processReplaySource(): ReplaySource | undefined {
  return replaySource;
}

/** Sets the process-wide replay source (preload only). */
export function setProcessReplaySource(source: ReplaySource | undefined): void {
  replaySource = source;
}
