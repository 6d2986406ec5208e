// The event shapes the SDK writes (docs/spec.md §2 and §5). A published
// peer implementation uses the same shapes, so records move between the two.

/** `{name, message, stack?}`: how a failure is stored (docs/spec.md §5). */
export interface EventError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

/** Who caused an event. */
export interface Actor {
  readonly type: 'user' | 'api_key' | 'system';
  readonly id: string;
  readonly label?: string;
}

/** Members every event carries. */
export interface EventBase {
  readonly schema_version: 1;
  readonly run_id: string;
  readonly span_id: string;
  readonly parent_span_id: string | null;
  readonly seq: number;
  readonly ts_start: string;
  readonly ts_end: string;
  readonly type: string;
  readonly metadata?: Record<string, unknown>;
  readonly actor?: Actor;
}

/** `run` events: one at the start (`phase: "start"`) and one at the end. */
export interface RunEvent extends EventBase {
  readonly type: 'run';
  readonly phase: 'start' | 'end';
  readonly name: string;
  readonly status: 'running' | 'success' | 'error';
  readonly input: unknown;
  readonly output: unknown;
  readonly error: EventError | null;
}

/** The model a call went to. */
export interface ModelRef {
  readonly provider: string;
  readonly model_id: string;
}

/** A model request: system prompt, messages, tool definitions, other parameters. */
export interface LlmRequest {
  readonly system?: unknown;
  readonly messages: readonly unknown[];
  readonly tools?: readonly unknown[];
  readonly params?: Record<string, unknown>;
}

/** A tool call the model asked for. */
export interface LlmToolCall {
  readonly tool_call_id: string;
  readonly tool_name: string;
  readonly input: unknown;
}

/**
 * A model response. `raw` (the provider's response body) and `chunks` (a stream's events in
 * order) are runback extensions: replay serves them back through the provider's own client.
 */
export interface LlmResponse {
  readonly text: string | null;
  readonly reasoning?: string | null;
  readonly finish_reason: string | null;
  readonly tool_calls: readonly LlmToolCall[];
  readonly raw?: unknown;
  readonly chunks?: readonly unknown[];
}

/** Token counts of one call. */
export interface LlmUsage {
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly total_tokens: number | null;
}

/** Which members of a keyed input the replay key hashes (docs/spec.md §5). */
export interface KeyProjectionSpec {
  readonly keep?: readonly string[];
  readonly drop?: readonly string[];
}

/** `llm` events. */
export interface LlmEvent extends EventBase {
  readonly type: 'llm';
  readonly model: ModelRef;
  readonly request: LlmRequest;
  readonly response: LlmResponse | null;
  readonly usage: LlmUsage | null;
  readonly latency_ms: number;
  readonly error: EventError | null;
  readonly key_projection?: KeyProjectionSpec;
}

/** `tool` events. */
export interface ToolEvent extends EventBase {
  readonly type: 'tool';
  readonly tool_name: string;
  readonly tool_call_id: string | null;
  readonly input: unknown;
  readonly output: unknown;
  readonly latency_ms: number;
  readonly error: EventError | null;
  readonly key_projection?: KeyProjectionSpec;
}

/** The kinds of environment reads (docs/spec.md §5). */
export type EnvKind = 'now' | 'date' | 'random' | 'uuid' | 'fetch' | 'http' | 'clock';

/** `env` events. */
export interface EnvEvent extends EventBase {
  readonly type: 'env';
  readonly kind: EnvKind;
  readonly key: string;
  readonly output: unknown;
}

/** `reasoning` events. */
export interface ReasoningEvent extends EventBase {
  readonly type: 'reasoning';
  readonly text: string;
  readonly label: string | null;
}

/** Any event the SDK writes. */
export type RecordedEvent = RunEvent | LlmEvent | ToolEvent | EnvEvent | ReasoningEvent;

/** Turns anything thrown into the stored error shape; never throws. */
export function toEventError(err: unknown): EventError {
  if (err instanceof Error) {
    const name = typeof err.name === 'string' && err.name !== '' ? err.name : 'Error';
    const message = typeof err.message === 'string' ? err.message : String(err.message);
    // Members in canonical order (message, name, stack): see run/sorted.ts.
    return typeof err.stack === 'string' ? { message, name, stack: err.stack } : { message, name };
  }
  let message: string;
  try {
    message = typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err));
  } catch {
    message = String(err);
  }
  return { message, name: 'NonError' };
}
