// Recording model calls. Integrations (OpenAI, Anthropic, AI SDK, provider-aware fetch) map a
// provider's request and response into the llm event shape (docs/spec.md §5) and
// record through beginLlmCall; `llmCall` is the one-shot form for a custom client.
import { llmKey } from '@runback/replay-digest';
import { RunbackError, argError } from '../../core/errors.js';
import { keyedInput, replayedError, servedCall } from '../../session/serve.js';
import {
  toEventError,
  type EventError,
  type KeyProjectionSpec,
  type LlmRequest,
  type LlmResponse,
  type LlmUsage,
} from '../../core/events.js';
import { elapsedMs } from '../../core/internal-globals.js';
import { isObject } from '../../core/values.js';
import { currentScope, runInScope } from '../../session/context.js';
import { openEvent } from '../../session/event-base.js';
import { sortedMembers } from '../../session/sorted.js';
import { snapshot } from '../../session/snapshot.js';
import { callPlace, checkKeyProjection, openCall, waitForSinkRoom, type OpenCall } from './call.js';

/** What a model call sends. */
export interface LlmCallInit {
  /** e.g. `openai`, `anthropic`. */
  readonly provider: string;
  /** The model id as the provider names it; part of the replay key. */
  readonly modelId: string;
  readonly request: LlmRequest;
  /** Members of the request left out of the replay key. */
  readonly keyProjection?: KeyProjectionSpec;
  readonly metadata?: Record<string, unknown>;
}

/** What a model call returned. */
export interface LlmCallOutcome {
  readonly response: LlmResponse;
  readonly usage?: LlmUsage | null;
  /** Provider facts such as the response id and system fingerprint. */
  readonly metadata?: Record<string, unknown>;
}

/** A model call in flight. End it exactly once, with `end` or `fail`. */
export interface LlmCallSpan {
  /** The call's seq in the run. */
  readonly seq: number;
  /** Runs `fn` inside the call: environment reads there are not captured, nested calls link here. */
  run<T>(fn: () => T): T;
  /** Records the call's response. */
  end(outcome: LlmCallOutcome): void;
  /** Records the call as failed; `metadata` keeps whatever is known (e.g. a partial stream). */
  fail(error: unknown, metadata?: Record<string, unknown>): void;
  /**
   * In a replay, the recorded call that answers this one: the integration must not send the
   * request, but hand the recorded response (or throw the recorded error) back through its
   * client's API, then end the span with it ({@link endReplayed}). Undefined when live.
   */
  readonly replayed: RecordedLlmCall | undefined;
}

/** A recorded model call, as a replay serves it. */
export interface RecordedLlmCall {
  readonly response: LlmResponse | null;
  readonly usage: LlmUsage | null;
  /** `{name, message, stack?}` when the recorded call failed. */
  readonly error: EventError | null;
  readonly metadata: Record<string, unknown> | undefined;
}

/**
 * Ends a replayed span with its recorded outcome: `end` with the recorded response, or `fail`
 * with the recorded error, which is returned for the integration to throw.
 */
export function endReplayed(span: LlmCallSpan): Error | undefined {
  const recorded = span.replayed;
  if (recorded === undefined) throw argError('span', 'a replayed span', span);
  if (recorded.error !== null || recorded.response === null) {
    const err = replayedError(recorded.error);
    span.fail(err, recorded.metadata);
    return err;
  }
  span.end({
    response: recorded.response,
    usage: recorded.usage,
    ...(recorded.metadata === undefined ? {} : { metadata: recorded.metadata }),
  });
  return undefined;
}

/**
 * Starts recording a model call, or returns undefined when there is nothing to record into: no
 * run is active, or this call is already being recorded by an outer layer (an AI SDK middleware
 * over a provider whose fetch is also watched: one call, one event).
 */
export function beginLlmCall(init: LlmCallInit): LlmCallSpan | undefined {
  if (typeof init !== 'object' || init === null) throw argError('init', 'an object', init);
  if (typeof init.provider !== 'string') throw argError('init.provider', 'a string', init.provider);
  if (typeof init.modelId !== 'string') throw argError('init.modelId', 'a string', init.modelId);
  checkKeyProjection('init.keyProjection', init.keyProjection);
  const parent = currentScope();
  if (parent === undefined || parent.kind === 'llm') return undefined;
  const request = snapshot(init.request, `llm "${init.modelId}" request`);
  const initMetadata = snapshot(init.metadata, `llm "${init.modelId}" metadata`) as
    Record<string, unknown> | undefined;
  const call = openCall(parent, 'llm');
  let done = false;
  let replayed: RecordedLlmCall | undefined;
  const emit = (
    members: Record<string, unknown>,
    metadata: Record<string, unknown> | undefined,
  ) => {
    if (done) return;
    done = true;
    // The two merged, members sorted; with nothing to merge, no copy is made.
    const merged =
      metadata === undefined && (initMetadata === undefined || isObject(initMetadata))
        ? initMetadata && sortedMembers(initMetadata)
        : sortedMembers({ ...initMetadata, ...metadata });
    const event = openEvent(callPlace(call), 'llm');
    event['model'] = { model_id: init.modelId, provider: init.provider };
    event['request'] = request;
    for (const name of Object.keys(members)) event[name] = members[name];
    event['latency_ms'] = elapsedMs(call.startMs);
    if (init.keyProjection !== undefined) event['key_projection'] = init.keyProjection;
    if (merged !== undefined && Object.keys(merged).length > 0) event['metadata'] = merged;
    call.scope.run.emit(event, true);
  };
  try {
    const keyed = keyedInput(parent.run, request);
    const served = servedCall(parent.run, {
      kind: 'llm',
      name: init.modelId,
      key: () => llmKey(init.modelId, keyed, init.keyProjection),
      input: keyed,
    });
    if (served !== undefined) replayed = recordedLlmCall(served.event);
  } catch (err) {
    // A replay with no recorded answer: the failed call is part of the replayed run's story.
    emit({ response: null, usage: null, error: toEventError(err) }, undefined);
    throw err;
  }
  return {
    seq: call.seq,
    replayed,
    run: (fn) => runInScope(call.scope, fn),
    end(outcome) {
      let response: unknown;
      let usage: unknown;
      try {
        response = snapshot(outcome.response, `llm "${init.modelId}" response`);
        usage = snapshot(outcome.usage ?? null, `llm "${init.modelId}" usage`);
      } catch (err) {
        abandon(call, () => (done = true));
        throw err;
      }
      emit({ response, usage, error: null }, outcome.metadata);
    },
    fail(error, metadata) {
      emit({ response: null, usage: null, error: toEventError(error) }, metadata);
    },
  };
}

function recordedLlmCall(event: Readonly<Record<string, unknown>>): RecordedLlmCall {
  const metadata = event['metadata'];
  return {
    response: (event['response'] ?? null) as LlmResponse | null,
    usage: (event['usage'] ?? null) as LlmUsage | null,
    error: (event['error'] ?? null) as EventError | null,
    metadata:
      typeof metadata === 'object' && metadata !== null
        ? (metadata as Record<string, unknown>)
        : undefined,
  };
}

function abandon(call: OpenCall, markDone: () => void): void {
  markDone();
  call.scope.run.abandonCall(call.seq);
}

/**
 * Records one non-streaming model call: runs `send` inside the call and maps its result with
 * `toOutcome`. A throw from `send` is recorded and rethrown. Outside a run, just `send()`.
 * In a replay, `fromRecorded` turns the recorded outcome back into what `send` returns (without
 * it a replayed call fails with REPLAY_UNSUPPORTED).
 */
export async function llmCall<T>(
  init: LlmCallInit,
  send: () => Promise<T>,
  toOutcome: (result: T) => LlmCallOutcome,
  fromRecorded?: (recorded: LlmCallOutcome) => T,
): Promise<T> {
  await waitForSinkRoom();
  const span = beginLlmCall(init);
  if (span === undefined) return await send();
  if (span.replayed !== undefined) {
    const failure = endReplayed(span);
    if (failure !== undefined) throw failure;
    if (fromRecorded === undefined) {
      throw new RunbackError(
        'REPLAY_UNSUPPORTED',
        `llmCall "${init.modelId}": expected a fromRecorded function to replay this call, got none`,
      );
    }
    const recorded = span.replayed;
    return fromRecorded({
      response: recorded.response as LlmResponse,
      usage: recorded.usage,
      ...(recorded.metadata === undefined ? {} : { metadata: recorded.metadata }),
    });
  }
  let result: T;
  try {
    result = await span.run(send);
  } catch (err) {
    span.fail(err);
    throw err;
  }
  let outcome: LlmCallOutcome;
  try {
    outcome = toOutcome(result);
  } catch (err) {
    // The call happened but cannot be described: record it as failed rather than leave it open.
    span.fail(err);
    throw err;
  }
  span.end(outcome);
  return result;
}
