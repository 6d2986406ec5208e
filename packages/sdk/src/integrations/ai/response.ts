// The parts of the llm event's response that generate and stream calls share (docs/spec.md
// §5: `response {text, reasoning, finish_reason, tool_calls[]}`, `usage {input_tokens,
// output_tokens, total_tokens}`), read from AI SDK values.
import type { LanguageModelV3ResponseMetadata, LanguageModelV3ToolCall } from '@ai-sdk/provider';
import type { LlmResponse, LlmToolCall, LlmUsage } from '../../core/events.js';
import { isObject } from '../../core/values.js';
import { keptHeaders } from '../../hooks/providers/http-headers.js';

/** What a response said, gathered from a result's content or from a stream's parts. */
export interface ResponseParts {
  /** Each text part's text, in order. */
  readonly texts: readonly string[];
  /** Each reasoning part's text, in order. */
  readonly reasonings: readonly string[];
  readonly toolCalls: readonly LlmToolCall[];
  readonly finishReason: unknown;
}

/**
 * The event's response members. Text and reasoning are their parts joined, as the AI SDK's own
 * `text` and `reasoningText` are; null when the model sent no such part.
 */
export function responseOf(parts: ResponseParts): LlmResponse {
  return {
    text: parts.texts.length === 0 ? null : parts.texts.join(''),
    reasoning: parts.reasonings.length === 0 ? null : parts.reasonings.join(''),
    finish_reason: finishReasonOf(parts.finishReason),
    tool_calls: parts.toolCalls,
  };
}

/** A tool call as the event stores it, its JSON-encoded input parsed. */
export function toolCallOf(part: LanguageModelV3ToolCall): LlmToolCall {
  return { tool_call_id: part.toolCallId, tool_name: part.toolName, input: parseInput(part.input) };
}

// The AI SDK sends tool input as JSON text; the event stores the value. Text that is not JSON
// (a model's malformed call, which the AI SDK reports later) is stored as it came.
function parseInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/** The unified finish reason (AI SDK 6: `{unified, raw}`; earlier: a string). */
function finishReasonOf(reason: unknown): string | null {
  if (typeof reason === 'string') return reason;
  if (isObject(reason) && typeof reason['unified'] === 'string') return reason['unified'];
  return null;
}

/**
 * Token counts. AI SDK 6 nests them (`inputTokens: {total, noCache, cacheRead, cacheWrite}`,
 * `outputTokens: {total, text, reasoning}`) and has no total; earlier versions had flat numbers
 * and `totalTokens`. Unknown counts are null, and so is a total that cannot be summed.
 */
export function usageOf(usage: unknown): LlmUsage | null {
  if (!isObject(usage)) return null;
  const input = tokenCount(usage['inputTokens']);
  const output = tokenCount(usage['outputTokens']);
  const stated = tokenCount(usage['totalTokens']);
  const total = stated ?? (input !== null && output !== null ? input + output : null);
  return { input_tokens: input, output_tokens: output, total_tokens: total };
}

function tokenCount(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (isObject(value) && typeof value['total'] === 'number') return value['total'];
  return null;
}

/** The event's metadata: the provider's response id and the model that answered. */
export function metadataOf(
  response: Pick<LanguageModelV3ResponseMetadata, 'id' | 'modelId'> | undefined,
): Record<string, unknown> {
  return {
    ...(response?.id === undefined ? {} : { response_id: response.id }),
    ...(response?.modelId === undefined ? {} : { model_id: response.modelId }),
  };
}

/**
 * `{headers}` with the response headers a client acts on (the allowlist of
 * providers/http-headers.ts: content type, retry and rate-limit headers, request ids; never
 * cookies or credentials), or nothing when there are none. A generate result keeps them in
 * `response.raw.response`, a stream in `response.headers`, and a replay hands them back.
 */
export function responseHeaders(headers: unknown): { headers?: Record<string, string> } {
  if (typeof headers !== 'object' || headers === null) return {};
  const given: [string, string][] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') given.push([name, value]);
  }
  let kept: Record<string, string>;
  try {
    kept = keptHeaders(new Headers(given), 'provider');
  } catch {
    return {}; // a name or value no HTTP response could carry
  }
  return Object.keys(kept).length === 0 ? {} : { headers: kept };
}
