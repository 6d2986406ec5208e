// A recorded model call's content in the shapes the GenAI semantic conventions give
// gen_ai.system_instructions, gen_ai.input.messages, gen_ai.output.messages and
// gen_ai.tool.definitions: messages of typed parts (text, tool_call, tool_call_response).
// Requests are stored as the provider was sent them (OpenAI chat, OpenAI responses, Anthropic
// messages), so each common message and part shape is read; anything else is kept as a part
// of its own type with its JSON, never dropped.
import { isRecord, jsonText, stringOr } from '../json-text.js';

/** One message part as the conventions describe it. */
export type Part = Readonly<Record<string, unknown>> & { readonly type: string };

/** One message: a role and its parts. */
export interface Message {
  readonly role: string;
  readonly parts: readonly Part[];
  readonly finish_reason?: string;
}

/** `gen_ai.system_instructions`: the system prompt as text parts. */
export function systemInstructions(system: unknown): Part[] | undefined {
  if (typeof system === 'string')
    return system === '' ? undefined : [{ type: 'text', content: system }];
  if (Array.isArray(system)) return system.map(partOf);
  return undefined;
}

/** `gen_ai.input.messages`. */
export function inputMessages(messages: unknown): Message[] | undefined {
  if (!Array.isArray(messages)) return undefined;
  return messages.map((message: unknown) => messageOf(message));
}

/** `gen_ai.output.messages`: the one assistant message of a recorded response. */
export function outputMessages(response: unknown): Message[] | undefined {
  if (!isRecord(response)) return undefined;
  const parts: Part[] = [];
  const reasoning = stringOr(response['reasoning']);
  if (reasoning !== undefined && reasoning !== '')
    parts.push({ type: 'reasoning', content: reasoning });
  const text = stringOr(response['text']);
  if (text !== undefined && text !== '') parts.push({ type: 'text', content: text });
  const calls = response['tool_calls'];
  if (Array.isArray(calls)) for (const call of calls) parts.push(toolCallPart(call));
  const finish = stringOr(response['finish_reason']);
  return [{ role: 'assistant', parts, ...(finish === undefined ? {} : { finish_reason: finish }) }];
}

/** `gen_ai.tool.definitions`. */
export function toolDefinitions(tools: unknown): unknown[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined;
  return tools.map((tool: unknown) => {
    if (!isRecord(tool)) return tool;
    const fn = isRecord(tool['function']) ? tool['function'] : tool;
    const parameters = fn['parameters'] ?? fn['input_schema'];
    return {
      type: 'function',
      name: stringOr(fn['name']) ?? '',
      ...(typeof fn['description'] === 'string' ? { description: fn['description'] } : {}),
      ...(parameters === undefined ? {} : { parameters }),
    };
  });
}

function messageOf(message: unknown): Message {
  if (!isRecord(message)) return { role: 'user', parts: [partOf(message)] };
  const role = stringOr(message['role']) ?? 'user';
  const parts: Part[] = [];
  const content = message['content'];
  const callId = stringOr(message['tool_call_id']);
  if (role === 'tool' && callId !== undefined) {
    parts.push({ type: 'tool_call_response', id: callId, response: content ?? null });
  } else if (typeof content === 'string') {
    if (content !== '') parts.push({ type: 'text', content });
  } else if (Array.isArray(content)) {
    for (const part of content) parts.push(partOf(part));
  } else if (content !== undefined && content !== null) {
    parts.push(partOf(content));
  }
  const calls = message['tool_calls'];
  if (Array.isArray(calls)) for (const call of calls) parts.push(toolCallPart(call));
  return { role, parts };
}

/** A content part: text, Anthropic tool_use / tool_result, or kept as it is. */
function partOf(part: unknown): Part {
  if (typeof part === 'string') return { type: 'text', content: part };
  if (!isRecord(part)) return { type: 'unknown', content: jsonText(part) };
  const type = stringOr(part['type']) ?? 'unknown';
  const text = stringOr(part['text']) ?? stringOr(part['content']);
  if ((type === 'text' || type === 'input_text' || type === 'output_text') && text !== undefined)
    return { type: 'text', content: text };
  if (type === 'tool_use' || type === 'function_call') return toolCallPart(part);
  if (type === 'tool_result' || type === 'function_call_output') {
    return {
      type: 'tool_call_response',
      id: stringOr(part['tool_use_id']) ?? stringOr(part['call_id']) ?? '',
      response: part['content'] ?? part['output'] ?? null,
    };
  }
  return { type, content: jsonText(part) };
}

/** A tool call in runback's form ({tool_call_id, tool_name, input}) or a provider's. */
function toolCallPart(call: unknown): Part {
  if (!isRecord(call)) return { type: 'tool_call', id: '', name: '', arguments: call ?? null };
  const fn = isRecord(call['function']) ? call['function'] : undefined;
  const id =
    stringOr(call['tool_call_id']) ?? stringOr(call['id']) ?? stringOr(call['call_id']) ?? '';
  const name =
    stringOr(call['tool_name']) ?? stringOr(fn?.['name']) ?? stringOr(call['name']) ?? '';
  const args = call['input'] ?? fn?.['arguments'] ?? call['arguments'] ?? null;
  return { type: 'tool_call', id, name, arguments: args };
}
