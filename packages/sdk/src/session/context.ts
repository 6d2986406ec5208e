// Which run and span the code running now belongs to. AsyncLocalStorage carries it through
// awaits, timers and callbacks, so nested calls need no plumbing and concurrent runs in one
// process never mix. A process-wide scope (set only by the `runback record` preload) is the
// fallback when no run is active in the async context.
import type { AsyncLocalStorage } from 'node:async_hooks';
import { RunbackError } from '../core/errors.js';
import { SDK_PROTOCOL, foreignActiveScope, recording, sdkVersion } from '../core/sdk-registry.js';
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

// Shared with every other copy of the SDK of the same protocol in this process, so that a call
// through any of them lands in the run another started (core/sdk-registry.ts).
const shared = recording.state;
const storage = shared.storage as AsyncLocalStorage<Scope>;

/**
 * The scope of the code running now, or undefined outside any recorded run. Throws
 * SDK_COPY_MISMATCH when, instead, a copy of the SDK of another protocol is recording a run
 * here: a call through this copy would be recorded nowhere.
 */
export function currentScope(): Scope | undefined {
  const scope = storage.getStore() ?? (shared.processScope as Scope | undefined);
  if (scope === undefined && recording.foreign !== undefined) refuseForeignRun();
  return scope !== undefined && !scope.run.ended ? scope : undefined;
}

function refuseForeignRun(): void {
  const foreign = recording.foreign;
  if (foreign === undefined || foreignActiveScope() === undefined) return;
  throw new RunbackError(
    'SDK_COPY_MISMATCH',
    `two copies of @runback/sdk cannot share this run: expected the copy this program imports (@runback/sdk ${sdkVersion()}, protocol ${SDK_PROTOCOL}) to speak the protocol of the copy recording the run (@runback/sdk ${foreign.version}, protocol ${foreign.protocol}), got two protocols; install one version (npm ls @runback/sdk), or run the runback CLI the program's own project installs (npm exec runback, with @runback/cli in its devDependencies)`,
  );
}

/** Runs `fn` with `scope` as the current scope (and everything it starts, awaits included). */
export function runInScope<T>(scope: Scope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** Makes `scope` the fallback for code outside any run's async context (preload only). */
export function setProcessScope(scope: Scope | undefined): void {
  shared.processScope = scope;
}

/**
 * The replay source the `RUNBACK_REPLAY` preload set for this process: every run started here
 * answers its calls from it.
 */
export function processReplaySource(): ReplaySource | undefined {
  return shared.replaySource as ReplaySource | undefined;
}

/** Sets the process-wide replay source (preload only). */
export function setProcessReplaySource(source: ReplaySource | undefined): void {
  shared.replaySource = source;
}
