// Reading provider JSON defensively: a provider (or an OpenAI-compatible server) may leave out
// or mistype any member, and recording must never throw on what a server sent.
import type { LlmToolCall } from '../../core/events.js';

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>;

/** Whether `value` is a JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is an object, else an empty one, so nested reads need no guards. */
export function recordOf(value: unknown): JsonObject {
  return isRecord(value) ? value : {};
}

/** `value` when it is an array, else an empty one. */
export function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` when it is a string, else null. */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** `value` when it is a finite number, else null. */
export function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The parsed JSON text, or `fallback` when it does not parse. */
export function parseJsonOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}

/** The parts joined, or null when there are none (a response with no text says so). */
export function joinedOrNull(parts: readonly string[]): string | null {
  return parts.length === 0 ? null : parts.join('');
}

/**
 * A tool call as the llm event stores it. `args` is the model's argument text: its parsed JSON
 * when it parses, else the text itself (a truncated stream, a model that wrote invalid JSON).
 */
export function toolCallFromArguments(id: unknown, name: unknown, args: unknown): LlmToolCall {
  const input = typeof args === 'string' ? parseJsonOr(args, args) : (args ?? null);
  return toolCall(id, name, input);
}

/** A tool call whose input is already data (Anthropic's tool_use, custom tools' free text). */
export function toolCall(id: unknown, name: unknown, input: unknown): LlmToolCall {
  return {
    tool_call_id: stringOrNull(id) ?? '',
    tool_name: stringOrNull(name) ?? '',
    input: input ?? null,
  };
}
