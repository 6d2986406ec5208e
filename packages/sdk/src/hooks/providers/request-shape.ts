// Splitting a request body into the event's `request {system, messages[], tools[], params}`.
// Every member except `model` lands somewhere, so the request is stored whole: the members an
// API uses for the system prompt, the conversation and the tool definitions are lifted out,
// and every other one (temperature, max_tokens, stream, tool_choice, response_format, ...)
// stays in `params` under its own name. A lifted member with an unexpected shape also stays in
// `params`, so nothing is lost or reinterpreted.
import type { LlmRequest } from '../../core/events.js';
import type { JsonObject } from './json.js';

/** Which body members of an API hold the system prompt and the conversation. */
export interface RequestShape {
  /** The member holding the system prompt (`system`, `instructions`), if the API has one. */
  readonly system?: string;
  /** The member holding the conversation (`messages`, `input`). */
  readonly messages: string;
  /** The conversation as a message list, or undefined when it has another shape. */
  readonly toMessages?: (value: unknown) => readonly unknown[] | undefined;
}

/** The event's request for `body`; `system` is null when the API or the call has none. */
export function splitRequest(body: JsonObject, shape: RequestShape): LlmRequest {
  const toMessages =
    shape.toMessages ?? ((value: unknown) => (Array.isArray(value) ? value : undefined));
  let system: unknown = null;
  let messages: readonly unknown[] = [];
  let tools: readonly unknown[] = [];
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === 'model' || value === undefined) continue;
    if (name === shape.system) {
      system = value;
      continue;
    }
    const list = name === shape.messages ? toMessages(value) : undefined;
    if (list !== undefined) {
      messages = list;
      continue;
    }
    if (name === 'tools' && Array.isArray(value)) {
      tools = value;
      continue;
    }
    params[name] = value;
  }
  return { system, messages, tools, params };
}
