// Recording tool calls: `tool(name, input, fn)` and `wrapTools(map)`.
import { argError } from '../../core/errors.js';
import { elapsedMs } from '../../core/internal-globals.js';
import { toEventError, type KeyProjectionSpec } from '../../core/events.js';
import { currentScope, runInScope } from '../../session/context.js';
import { openEvent } from '../../session/event-base.js';
import { snapshot } from '../../session/snapshot.js';
import { toolKey } from '@runback/replay-digest';
import { keyedInput, replayedError, servedCall } from '../../session/serve.js';
import { callPlace, checkKeyProjection, openCall, waitForSinkRoom } from './call.js';
import { replayToolBody } from './tool-body.js';
import { openBodyEnv } from './tool-env.js';

/** Options of one tool call. */
export interface ToolCallOptions {
  /** The model's id for this call, linking it to the `llm` event that asked for it. */
  readonly toolCallId?: string;
  /** Members of `input` left out of the replay key (docs/spec.md §5). */
  readonly keyProjection?: KeyProjectionSpec;
  /** Extra facts stored with the event. */
  readonly metadata?: Record<string, unknown>;
}

/**
 * Runs `fn(input)` as a recorded tool call and returns its result. The event holds a JSON copy
 * of the input taken before `fn` runs and of the output when it resolves; a throw is recorded
 * with its error and rethrown unchanged. Outside a recorded run this is just `fn(input)`.
 * Tool and model calls inside `fn` are recorded as children of the tool's span; with
 * `captureEnv`, the body's own fetch, clock, random and UUID reads are kept in the tool's event
 * (`body_env`, hooks/spans/tool-env.ts), not as env events.
 *
 * In a replay the recorded call is found by its key first (a miss fails as any call's does).
 * Then, by the replay's `tools` option (session/replay-tools.ts): `recorded` (the default)
 * returns the recorded output, or throws the recorded error, without running `fn`, and gives
 * back the calls recorded inside it; `live` runs `fn`, its calls and reads answered from the
 * record, and records what it returns, so a changed implementation diverges at this call.
 */
export async function tool<I, O>(
  name: string,
  input: I,
  fn: (input: I) => O | Promise<O>,
  options: ToolCallOptions = {},
): Promise<Awaited<O>> {
  if (typeof name !== 'string' || name === '') throw argError('name', 'a non-empty string', name);
  if (typeof fn !== 'function') throw argError('fn', 'a function', fn);
  checkKeyProjection('options.keyProjection', options.keyProjection);
  const parent = currentScope();
  if (parent === undefined) return await fn(input);
  await waitForSinkRoom();

  const storedInput = snapshot(input, `tool "${name}" input`);
  const metadata = snapshot(options.metadata, `tool "${name}" metadata`);
  const call = openCall(parent, 'tool');
  // The body's environment reads (hooks/spans/tool-env.ts): what it read, or in a replay that
  // serves the output, what the record says it read.
  let bodyEnv: unknown;
  const finish = (output: unknown, error: unknown, failed: boolean) => {
    const event = openEvent(callPlace(call), 'tool');
    event['tool_name'] = name;
    event['tool_call_id'] = options.toolCallId ?? null;
    event['input'] = storedInput ?? null;
    event['output'] = failed ? null : (output ?? null);
    event['latency_ms'] = elapsedMs(call.startMs);
    event['error'] = failed ? toEventError(error) : null;
    if (options.keyProjection !== undefined) event['key_projection'] = options.keyProjection;
    if (metadata !== undefined) event['metadata'] = metadata;
    if (Array.isArray(bodyEnv) && bodyEnv.length > 0) event['body_env'] = bodyEnv;
    call.scope.run.emit(event, true);
  };

  // In a replay the recorded call answers, and `fn` does not run (unless tool bodies run live).
  let served;
  try {
    const keyed = keyedInput(parent.run, storedInput ?? null);
    served = servedCall(parent.run, {
      kind: 'tool',
      name,
      key: () => toolKey(name, keyed, options.keyProjection),
      input: keyed,
    });
  } catch (err) {
    finish(null, err, true);
    throw err;
  }
  const source = parent.run.replay;
  if (served !== undefined && source !== undefined && source.tools === 'recorded') {
    const recorded = served.event;
    replayToolBody(source, served, recorded, call.scope);
    bodyEnv = recorded['body_env'];
    if (recorded['error'] !== null && recorded['error'] !== undefined) {
      const err = replayedError(recorded['error']);
      finish(null, err, true);
      throw err;
    }
    finish(recorded['output'], null, false);
    return recorded['output'] as Awaited<O>;
  }

  bodyEnv = openBodyEnv(
    call.scope,
    name,
    parent.run.capture,
    served === undefined || source === undefined
      ? undefined
      : { event: served.event, mode: source.mode },
  );
  let result: Awaited<O>;
  try {
    result = await runInScope(call.scope, () => fn(input));
  } catch (err) {
    finish(null, err, true);
    throw err;
  }
  let output: unknown;
  try {
    output = snapshot(result, `tool "${name}" output`);
  } catch (err) {
    call.scope.run.abandonCall(call.seq);
    throw err;
  }
  finish(output, null, false);
  return result;
}

/** A map of tool functions, each taking one input. */
export type ToolMap = Readonly<Record<string, (input: never) => unknown>>;

/**
 * Wraps every function of a tool map so each call is recorded as `tool(name, input, fn)`, the
 * map key being the tool name. Returns a new map; the functions keep their signatures (they
 * return promises).
 */
export function wrapTools<T extends ToolMap>(
  tools: T,
  options: Omit<ToolCallOptions, 'toolCallId'> = {},
): { [K in keyof T]: (input: Parameters<T[K]>[0]) => Promise<Awaited<ReturnType<T[K]>>> } {
  if (typeof tools !== 'object' || tools === null) throw argError('tools', 'an object', tools);
  const wrapped: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(tools)) {
    if (typeof fn !== 'function') throw argError(`tools.${name}`, 'a function', fn);
    wrapped[name] = (input: unknown) =>
      tool(name, input, fn as (input: unknown) => unknown, options);
  }
  return wrapped as never;
}
