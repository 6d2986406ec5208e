// The environment reads a `tool()` body makes (with `captureEnv`: its clock, random, UUID and
// fetch reads), kept with the tool call itself: its event's `body_env`, one entry per read in the
// order the body made them, `{kind, key, output}` (a fetch also its `input`), keyed as env
// events are (docs/spec.md §4.4). They are not calls of the run's oracle stream: the tool's
// output stands for them there, so a replay that serves the output (tools: 'recorded') need not
// make them, and parallel tools cannot take each other's reads. A replay that runs the body
// (tools: 'live') answers each read from the served tool's own list, first-in first-out by kind
// and key (docs/guides/replay.md, "Tool bodies").
import { isObject } from '../../core/values.js';
import type { CaptureSettings } from '../../session/capture-settings.js';
import { currentScope, type Scope } from '../../session/context.js';
import { ReplayMissError, type ReplayMode } from '../../session/replay-source.js';

/** One read of a tool body. */
export type BodyRead = Record<string, unknown> & { readonly kind: string; readonly key: string };

/** The reads of one running tool body, and in a live replay the recorded ones that answer them. */
export interface BodyEnv {
  /** The tool's name, for a miss's message. */
  readonly tool: string;
  /** The kinds of read kept: those the run captures, and in a replay those the record kept. */
  readonly captured: ReadonlySet<string>;
  /** What the body read, as the tool's event stores it. */
  readonly reads: BodyRead[];
  /** In a live replay: the served tool's recorded reads, and which were answered. */
  readonly recorded?: { readonly reads: readonly BodyRead[]; readonly used: boolean[] };
  /** In a live replay: what to do with a read the record does not hold. */
  readonly mode?: ReplayMode;
}

/** The reads a tool body can make that env capture covers (a model call is an event of its own). */
const BODY_KINDS = ['now', 'date', 'random', 'uuid', 'fetch', 'clock'] as const;

// On the tool call's scope object, under a global key, so that the capture another copy of the
// SDK installed finds it too (core/sdk-registry.ts).
const BODY_ENV = Symbol.for('runback.toolBodyEnv');

/**
 * Marks `scope` (a tool call's) as a body whose reads are kept, when there is any to keep:
 * the run captures a kind a body can read, or (in a replay that runs the body) the served
 * tool's event kept reads. Returns the reads, which the tool's event stores as `body_env`.
 */
export function openBodyEnv(
  scope: Scope,
  tool: string,
  capture: CaptureSettings,
  served?: { readonly event: Readonly<Record<string, unknown>>; readonly mode: ReplayMode },
): BodyRead[] | undefined {
  const stored = served?.event['body_env'];
  // The common case, a run without env capture, allocates nothing.
  if (!Array.isArray(stored) && !BODY_KINDS.some((kind) => capture[kind])) return undefined;
  const recorded = Array.isArray(stored) ? stored.filter(isBodyRead) : [];
  const captured = new Set<string>(BODY_KINDS.filter((kind) => capture[kind]));
  for (const read of recorded) captured.add(read.kind);
  if (captured.size === 0) return undefined;
  const body: BodyEnv = {
    tool,
    captured,
    reads: [],
    ...(served === undefined
      ? {}
      : { mode: served.mode, recorded: { reads: recorded, used: recorded.map(() => false) } }),
  };
  (scope as unknown as Record<symbol, unknown>)[BODY_ENV] = body;
  return body.reads;
}

/** The body env a read of `kind` made now is kept in: inside a kept tool body that keeps it. */
export function bodyEnvFor(kind: string): BodyEnv | undefined {
  const scope = currentScope();
  if (scope === undefined || scope.kind !== 'tool') return undefined;
  const body = (scope as unknown as Record<symbol, BodyEnv | undefined>)[BODY_ENV];
  return body !== undefined && body.captured.has(kind) ? body : undefined;
}

/**
 * The recorded read that answers this one when the body runs in a replay: the first unanswered
 * read of the same kind and key. Undefined when the body is not being replayed, or in
 * live-on-miss when none matches (the read is then made). Throws ReplayMissError in strict and
 * ordered replays when none matches.
 */
export function answerBodyRead(
  body: BodyEnv,
  kind: string,
  key: string,
  what?: string,
): BodyRead | undefined {
  const recorded = body.recorded;
  if (recorded === undefined) return undefined;
  for (let i = 0; i < recorded.reads.length; i++) {
    const read = recorded.reads[i] as BodyRead;
    if (recorded.used[i] === true || read.kind !== kind || read.key !== key) continue;
    recorded.used[i] = true;
    return read;
  }
  if (body.mode === 'live-on-miss') return undefined;
  const mode = body.mode ?? 'strict';
  const err = new ReplayMissError({
    kind,
    name: kind,
    key,
    mode,
    nearest: null,
    inputDiff: [],
    wentLive: false,
  });
  const read = kind === 'fetch' ? `a fetch (${what ?? key})` : `a ${kind} read`;
  err.message = `${mode} replay: the body of tool "${body.tool}", run live, made ${read} that the record does not hold for that tool call; expected only the reads it made when recorded, got one more`;
  throw err;
}

function isBodyRead(value: unknown): value is BodyRead {
  return isObject(value) && typeof value['kind'] === 'string' && typeof value['key'] === 'string';
}
