// Two copies of the SDK in one process (a globally installed `runback record` preloads its
// own, the program imports another) must record into the same run, or say loudly that they
// cannot. The first copy loaded puts the process's shared recording state on a global
// `Symbol.for` key: the real clock, randomness, UUIDs and fetch saved before any capture (one
// stable shape, under its own key), and the async context that says which run and span the
// running code belongs to, with the process-wide scope and replay source. A later copy whose
// protocol is the same adopts that state, so a `tool()` call through it lands in the run the
// other copy started; a copy of another protocol keeps its own, and fails any recording call
// made while the other copy's run is active, naming both versions (never a silent gap).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID as cryptoRandomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version of what the copies share: the shapes of the scope, the active run and the
 * replay source that one copy's code calls on another's objects. Raised whenever any of them
 * changes incompatibly.
 */
export const SDK_PROTOCOL = 1;

/** The real globals, saved before any capture; this shape never changes. */
export interface SavedGlobals {
  readonly Date: DateConstructor;
  readonly dateNow: () => number;
  readonly random: () => number;
  readonly performanceNow: () => number;
  readonly randomUUID: () => string;
  readonly fetch: typeof fetch | undefined;
}

/** The recording state shared by copies of one protocol. */
export interface SharedRecordingState {
  readonly protocol: number;
  /** The package version of the copy that created the state. */
  readonly version: string;
  readonly storage: AsyncLocalStorage<unknown>;
  processScope: unknown;
  replaySource: unknown;
  /** Whether the environment capture wrappers are on the globals (installed once per process). */
  captureInstalled: boolean;
}

const GLOBALS_KEY = Symbol.for('@runback/sdk/real-globals');
const STATE_KEY = Symbol.for('@runback/sdk/recording-state');

let version: string | undefined;

type Slots = Record<symbol, unknown>;
const slots = globalThis as unknown as Slots;

/** The real globals: the first copy's save, else saved now. */
export const savedGlobals: SavedGlobals = (() => {
  const saved = slots[GLOBALS_KEY];
  if (isSavedGlobals(saved)) return saved;
  const fresh: SavedGlobals = Object.freeze({
    Date,
    dateNow: Date.now.bind(Date),
    random: Math.random.bind(Math),
    performanceNow: performance.now.bind(performance),
    // A copy of the binding taken now: capture later refreshes node:crypto's named exports.
    randomUUID: cryptoRandomUUID,
    fetch: typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined,
  });
  Object.defineProperty(slots, GLOBALS_KEY, { value: fresh, enumerable: false });
  return fresh;
})();

/**
 * This copy's recording state: the shared one when its protocol is ours, else our own (and
 * `foreign` is the other copy's, to detect its active runs).
 */
export const recording: {
  readonly state: SharedRecordingState;
  readonly foreign?: SharedRecordingState;
} = (() => {
  const found = slots[STATE_KEY];
  const own = (): SharedRecordingState => ({
    protocol: SDK_PROTOCOL,
    version: sdkVersion(),
    storage: new AsyncLocalStorage<unknown>(),
    processScope: undefined,
    replaySource: undefined,
    captureInstalled: false,
  });
  if (found === undefined) {
    const state = own();
    Object.defineProperty(slots, STATE_KEY, { value: state, enumerable: false });
    return { state };
  }
  const other = found as SharedRecordingState;
  if (other.protocol === SDK_PROTOCOL) return { state: other };
  return { state: own(), foreign: other };
})();

/**
 * The scope another copy of the SDK, of another protocol, is recording in for the code running
 * now; undefined when there is none (or no such copy).
 */
export function foreignActiveScope(): unknown {
  const foreign = recording.foreign;
  if (foreign === undefined) return undefined;
  const storage = foreign.storage as unknown as { getStore?: () => unknown } | undefined;
  const scope = typeof storage?.getStore === 'function' ? storage.getStore() : undefined;
  const active = scope ?? foreign.processScope;
  const run = (active as { run?: { ended?: unknown } } | undefined)?.run;
  return active !== undefined && run?.ended !== true ? active : undefined;
}

/** This copy's package version, from the package.json above this module. */
export function sdkVersion(): string {
  if (version !== undefined) return version;
  version = 'unknown';
  try {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (let depth = 0; depth < 6; depth++) {
      let manifest: { name?: unknown; version?: unknown } | undefined;
      try {
        manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof manifest;
      } catch {
        manifest = undefined;
      }
      if (manifest?.name === '@runback/sdk' && typeof manifest.version === 'string') {
        version = manifest.version;
        break;
      }
      dir = dirname(dir);
    }
  } catch {
    // A bundled copy without its package.json: the version stays "unknown".
  }
  return version;
}

function isSavedGlobals(value: unknown): value is SavedGlobals {
  const v = value as Partial<SavedGlobals> | undefined;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.Date === 'function' &&
    typeof v.dateNow === 'function' &&
    typeof v.random === 'function' &&
    typeof v.performanceNow === 'function' &&
    typeof v.randomUUID === 'function'
  );
}
