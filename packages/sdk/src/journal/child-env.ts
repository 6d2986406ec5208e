// The environment variables through which `runback record` hands a journal to the preloaded
// SDK in its child process. The preload deletes them at start, so grandchild processes (which
// inherit NODE_OPTIONS) do not also append to the journal.

/** Names of the variables. */
export const CHILD_ENV = {
  journal: 'RUNBACK_RECORD_JOURNAL',
  runId: 'RUNBACK_RECORD_RUN_ID',
  chainHead: 'RUNBACK_RECORD_CHAIN_HEAD',
  chainCount: 'RUNBACK_RECORD_CHAIN_COUNT',
  firstSeq: 'RUNBACK_RECORD_FIRST_SEQ',
  sync: 'RUNBACK_RECORD_SYNC',
  capture: 'RUNBACK_RECORD_CAPTURE',
  parentSpan: 'RUNBACK_RECORD_PARENT_SPAN',
  macKey: 'RUNBACK_RECORD_JOURNAL_KEY',
} as const;

/** What a preloaded child needs to continue a run's journal. */
export interface ChildRecording {
  readonly journal: string;
  readonly runId: string;
  readonly chainHead: string;
  readonly chainCount: number;
  readonly firstSeq: number;
  readonly parentSpan: string;
  readonly sync: boolean;
  readonly capture: unknown;
  /**
   * The journal's line MAC key (hex), when it is authenticated. Derived for this journal only
   * (a random salt), so the program that can read it can extend this run's journal and no other.
   */
  readonly macKey?: string | undefined;
}

/** Encodes a child recording as environment variables. */
export function childRecordingEnv(child: ChildRecording): Record<string, string> {
  return {
    [CHILD_ENV.journal]: child.journal,
    [CHILD_ENV.runId]: child.runId,
    [CHILD_ENV.chainHead]: child.chainHead,
    [CHILD_ENV.chainCount]: String(child.chainCount),
    [CHILD_ENV.firstSeq]: String(child.firstSeq),
    [CHILD_ENV.parentSpan]: child.parentSpan,
    [CHILD_ENV.sync]: child.sync ? '1' : '0',
    [CHILD_ENV.capture]: JSON.stringify(child.capture ?? true),
    ...(child.macKey === undefined ? {} : { [CHILD_ENV.macKey]: child.macKey }),
  };
}

/** Reads and removes the variables; undefined when this process is not a recorded child. */
export function takeChildRecording(env: NodeJS.ProcessEnv): ChildRecording | undefined {
  const journal = env[CHILD_ENV.journal];
  const values = Object.fromEntries(Object.values(CHILD_ENV).map((name) => [name, env[name]]));
  for (const name of Object.values(CHILD_ENV)) delete env[name];
  if (journal === undefined || journal === '') return undefined;
  const number = (name: string) => {
    const value = Number(values[name]);
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new TypeError(`${name}: expected an integer >= 0, got ${String(values[name])}`);
    }
    return value;
  };
  return {
    journal,
    runId: values[CHILD_ENV.runId] ?? '',
    chainHead: values[CHILD_ENV.chainHead] ?? '',
    chainCount: number(CHILD_ENV.chainCount),
    firstSeq: number(CHILD_ENV.firstSeq),
    parentSpan: values[CHILD_ENV.parentSpan] ?? 'run',
    sync: values[CHILD_ENV.sync] !== '0',
    capture: JSON.parse(values[CHILD_ENV.capture] ?? 'true') as unknown,
    macKey: values[CHILD_ENV.macKey],
  };
}

/**
 * Set when the program was started with an IPC channel to `runback record`: the preload ends the
 * program when that channel closes (its parent died).
 */
export const WATCH_PARENT_ENV = 'RUNBACK_RECORD_WATCH_PARENT';

/** Reads and removes {@link WATCH_PARENT_ENV}. */
export function takeWatchParent(env: NodeJS.ProcessEnv): boolean {
  const value = env[WATCH_PARENT_ENV];
  delete env[WATCH_PARENT_ENV];
  return value === '1';
}

/** The variables that ask the preload to answer a program's calls from a record. */
export const REPLAY_ENV = {
  path: 'RUNBACK_REPLAY',
  mode: 'RUNBACK_REPLAY_MODE',
  /** `recorded` (default) or `live`: whether `tool()` bodies run (session/replay-tools.ts). */
  tools: 'RUNBACK_REPLAY_TOOLS',
} as const;

/** Reads and removes the replay variables; undefined when this process is not a replay. */
export function takeReplayRequest(
  env: NodeJS.ProcessEnv,
): { path: string; mode: string; tools: string } | undefined {
  const path = env[REPLAY_ENV.path];
  const mode = env[REPLAY_ENV.mode];
  const tools = env[REPLAY_ENV.tools];
  delete env[REPLAY_ENV.path];
  delete env[REPLAY_ENV.mode];
  delete env[REPLAY_ENV.tools];
  if (path === undefined || path === '') return undefined;
  return {
    path,
    mode: mode === undefined || mode === '' ? 'strict' : mode,
    tools: tools === undefined || tools === '' ? 'recorded' : tools,
  };
}
