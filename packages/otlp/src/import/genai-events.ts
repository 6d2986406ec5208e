// One GenAI span → one runback event, read from the GenAI attributes alone: a model call
// (chat, text_completion, generate_content, embeddings) → an llm event, execute_tool → a tool
// event, any other GenAI operation (a nested agent, a retrieval, a workflow) → an event of
// type "span" that keeps its operation, name and times. Each event also keeps, in
// metadata.otel, the trace and span id it came from.
import { isRecord } from '../json-text.js';
import { inputMessagesOf, jsonOrText, responseOf, systemOf, toolsOf } from './genai-content.js';
import type { AttributeValue, OtlpSpan } from './otlp-spans.js';

const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'embeddings']);

/** Request parameters read from gen_ai.request.* attributes, by their record names. */
const PARAMS: ReadonlyArray<readonly [string, string]> = [
  ['gen_ai.request.temperature', 'temperature'],
  ['gen_ai.request.top_p', 'top_p'],
  ['gen_ai.request.top_k', 'top_k'],
  ['gen_ai.request.max_tokens', 'max_tokens'],
  ['gen_ai.request.frequency_penalty', 'frequency_penalty'],
  ['gen_ai.request.presence_penalty', 'presence_penalty'],
  ['gen_ai.request.seed', 'seed'],
  ['gen_ai.request.stop_sequences', 'stop'],
];

/** The operation a span performs: gen_ai.operation.name, or inferred from older attributes. */
export function operationOf(span: OtlpSpan): string | undefined {
  const op = span.attributes.get('gen_ai.operation.name');
  if (typeof op === 'string' && op !== '') return op;
  if (span.attributes.has('gen_ai.tool.name')) return 'execute_tool';
  if (
    span.attributes.has('gen_ai.request.model') ||
    span.attributes.has('gen_ai.system') ||
    span.attributes.has('gen_ai.provider.name')
  )
    return 'chat';
  return undefined;
}

/** The event's base members: the caller fills run_id, seq and parent. */
export interface EventBase {
  readonly run_id: string;
  readonly span_id: string;
  readonly parent_span_id: string;
  readonly seq: number;
}

/** The runback event a GenAI span stands for. */
export function eventOfSpan(
  span: OtlpSpan,
  operation: string,
  base: EventBase,
): Record<string, unknown> {
  const a = contentAttributes(span);
  const common = {
    schema_version: 1,
    ...base,
    ts_start: iso(span.start),
    ts_end: iso(span.end),
  };
  const otel = {
    trace_id: span.traceId,
    span_id: span.spanId,
    name: span.name,
    ...(span.scope === '' ? {} : { scope: span.scope }),
  };
  const error =
    span.statusCode === 2
      ? { name: text(a.get('error.type')) ?? 'Error', message: span.statusMessage }
      : null;
  if (MODEL_OPERATIONS.has(operation)) {
    const params: Record<string, unknown> = {};
    for (const [attribute, name] of PARAMS) if (a.has(attribute)) params[name] = a.get(attribute);
    const input = count(a.get('gen_ai.usage.input_tokens') ?? a.get('gen_ai.usage.prompt_tokens'));
    const output = count(
      a.get('gen_ai.usage.output_tokens') ?? a.get('gen_ai.usage.completion_tokens'),
    );
    const responseModel = text(a.get('gen_ai.response.model'));
    const responseId = text(a.get('gen_ai.response.id'));
    return {
      ...common,
      type: 'llm',
      model: {
        provider: text(a.get('gen_ai.provider.name')) ?? text(a.get('gen_ai.system')) ?? 'unknown',
        model_id: text(a.get('gen_ai.request.model')) ?? responseModel ?? 'unknown',
      },
      request: { system: systemOf(a), messages: inputMessagesOf(a), tools: toolsOf(a), params },
      response: responseOf(a),
      usage: {
        input_tokens: input,
        output_tokens: output,
        total_tokens: input === null || output === null ? null : input + output,
      },
      latency_ms: span.end - span.start,
      error,
      metadata: {
        operation,
        ...(responseId === undefined ? {} : { response_id: responseId }),
        ...(responseModel === undefined ? {} : { response_model: responseModel }),
        otel,
      },
    };
  }
  if (operation === 'execute_tool') {
    return {
      ...common,
      type: 'tool',
      tool_name:
        text(a.get('gen_ai.tool.name')) ?? (span.name.replace(/^execute_tool\s+/, '') || 'unknown'),
      tool_call_id: text(a.get('gen_ai.tool.call.id')) ?? null,
      input: jsonOrText(a.get('gen_ai.tool.call.arguments')),
      output: jsonOrText(a.get('gen_ai.tool.call.result')),
      latency_ms: span.end - span.start,
      error,
      metadata: { otel },
    };
  }
  return {
    ...common,
    type: 'span',
    name: span.name,
    operation,
    ...(a.has('gen_ai.agent.name') ? { agent_name: a.get('gen_ai.agent.name') } : {}),
    error,
    metadata: { otel },
  };
}

/** Milliseconds since the epoch as ISO 8601 with milliseconds and Z (docs/spec.md §5). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function text(value: AttributeValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A token count: an integer ≥ 0, else null. */
function count(value: AttributeValue | undefined): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/**
 * A span's attributes with the content some instrumentations put in span events instead:
 * gen_ai.prompt / gen_ai.completion on gen_ai.content.prompt / .completion events (older
 * conventions), gen_ai.input.messages and the like on gen_ai.client.inference.operation.details
 * events. An attribute on the span itself wins.
 */
export function contentAttributes(span: OtlpSpan): ReadonlyMap<string, AttributeValue> {
  const events = span.events.filter((e) => e.name.startsWith('gen_ai.'));
  if (events.length === 0) return span.attributes;
  const merged = new Map(span.attributes);
  for (const event of events)
    for (const [key, value] of event.attributes)
      if (key.startsWith('gen_ai.') && !merged.has(key)) merged.set(key, value);
  return merged;
}

/** Output of an agent span, when it says what it answered. */
export function agentOutputOf(span: OtlpSpan): unknown {
  const response = responseOf(contentAttributes(span));
  if (typeof response['text'] === 'string') return response['text'];
  return isRecord(response) &&
    Array.isArray(response['tool_calls']) &&
    response['tool_calls'].length > 0
    ? response
    : null;
}
