// The tool calls of a run, for a reviewer: what the agent did, with what input, and what came
// back. A record with tool events (the SDK's wrapped tools) lists those. A zero-code record
// (runback record) has no tool events — the program ran its tools itself — so its tool calls
// are read from what the model asked for: the normalized `response.tool_calls` of llm events,
// or the provider's own response (OpenAI Chat `choices[].message.tool_calls`, OpenAI Responses
// `output[]` function calls, Anthropic `content[]` tool_use blocks) in an llm event's
// `response.raw` or a recorded fetch's body. The result the program sent back to the model
// (a later request's tool message or tool_result block) is matched by the call's id.

import { asObject as obj, list, str, type Json } from './read-json.js';

/** One tool call, in the order of the run. */
export interface ToolCall {
  /** The event it was read from: a tool event, or the llm / fetch event whose response asked for it. */
  readonly seq: number | null;
  readonly event_index: number;
  /** `tool_event`: the call as executed and recorded; `model_request`: as the model asked for it. */
  readonly source: 'tool_event' | 'model_request';
  readonly tool_name: string;
  readonly tool_call_id: string | null;
  readonly input: unknown;
  /** The tool's output; for a model-requested call, the result later sent back to the model. */
  readonly output: unknown;
  readonly error: unknown;
  /** A policy decision recorded on the call (`policy_block`), when there is one. */
  readonly policy_block: unknown;
}

/** The run's tool calls: its tool events, or else the calls its model responses requested. */
export function toolCallsOf(events: readonly Json[]): ToolCall[] {
  const executed: ToolCall[] = [];
  events.forEach((event, index) => {
    if (event['type'] !== 'tool') return;
    executed.push({
      seq: seqOf(event),
      event_index: index,
      source: 'tool_event',
      tool_name: str(event['tool_name']) ?? '(unnamed)',
      tool_call_id: str(event['tool_call_id']),
      input: event['input'] ?? null,
      output: event['output'] ?? null,
      error: event['error'] ?? null,
      policy_block: event['policy_block'] ?? null,
    });
  });
  if (executed.length > 0) return executed;

  const requested: ToolCall[] = [];
  const results = toolResults(events);
  const seen = new Set<string>();
  events.forEach((event, index) => {
    for (const call of requestedCalls(event)) {
      // The same response recorded twice (an llm event and its fetch) lists its calls once.
      if (call.id !== null && seen.has(call.id)) continue;
      if (call.id !== null) seen.add(call.id);
      const result = call.id === null ? undefined : results.get(call.id);
      requested.push({
        seq: seqOf(event),
        event_index: index,
        source: 'model_request',
        tool_name: call.name,
        tool_call_id: call.id,
        input: call.input,
        output: result?.output ?? null,
        error: result?.isError === true ? (result.output ?? true) : null,
        policy_block: null,
      });
    }
  });
  return requested;
}

interface RequestedCall {
  readonly name: string;
  readonly id: string | null;
  readonly input: unknown;
}

/** The tool calls a model response in this event asks for. */
function requestedCalls(event: Json): RequestedCall[] {
  if (event['type'] === 'llm') {
    const response = obj(event['response']);
    if (response === undefined) return [];
    const normalized = Array.isArray(response['tool_calls']) ? response['tool_calls'] : [];
    const calls = normalized.flatMap((c: unknown): RequestedCall[] => {
      const call = obj(c);
      const name = str(call?.['tool_name']) ?? str(call?.['name']);
      return call === undefined || name === null
        ? []
        : [
            {
              name,
              id: str(call['tool_call_id']) ?? str(call['id']),
              input: call['input'] ?? null,
            },
          ];
    });
    return calls.length > 0 ? calls : providerCalls(response['raw']);
  }
  if (event['type'] === 'env' && (event['kind'] === 'fetch' || event['kind'] === 'http')) {
    const body = obj(obj(event['output'])?.['body']);
    const text = str(body?.['text']);
    return text === null ? [] : providerCalls(parseJson(text));
  }
  return [];
}

/** Tool calls in a provider's own response body (OpenAI Chat / Responses, Anthropic). */
function providerCalls(raw: unknown): RequestedCall[] {
  const body = obj(raw);
  if (body === undefined) return [];
  const calls: RequestedCall[] = [];
  // OpenAI Chat Completions: choices[].message.tool_calls[].function {name, arguments}.
  for (const choice of list(body['choices'])) {
    for (const c of list(obj(obj(choice)?.['message'])?.['tool_calls'])) {
      const call = obj(c);
      const fn = obj(call?.['function']);
      const name = str(fn?.['name']);
      if (name !== null)
        calls.push({ name, id: str(call?.['id']), input: argumentsOf(fn?.['arguments']) });
    }
  }
  // Anthropic Messages: content[] blocks {type: "tool_use", id, name, input}.
  for (const b of list(body['content'])) {
    const block = obj(b);
    const name = str(block?.['name']);
    if (block?.['type'] === 'tool_use' && name !== null)
      calls.push({ name, id: str(block['id']), input: block['input'] ?? null });
  }
  // OpenAI Responses: output[] items {type: "function_call", call_id, name, arguments}.
  for (const o of list(body['output'])) {
    const item = obj(o);
    const name = str(item?.['name']);
    if (item?.['type'] === 'function_call' && name !== null)
      calls.push({
        name,
        id: str(item['call_id']) ?? str(item['id']),
        input: argumentsOf(item['arguments']),
      });
  }
  return calls;
}

interface ToolResult {
  readonly output: unknown;
  readonly isError: boolean;
}

/**
 * What the program sent back for each tool call id, from later model requests: OpenAI Chat
 * `{role: "tool", tool_call_id, content}`, Anthropic `{type: "tool_result", tool_use_id,
 * content, is_error}` blocks, OpenAI Responses `{type: "function_call_output", call_id, output}`.
 */
function toolResults(events: readonly Json[]): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  for (const event of events) {
    for (const request of requestsOf(event)) {
      const items = [...list(request['messages']), ...list(request['input'])];
      for (const m of items) {
        const message = obj(m);
        if (message === undefined) continue;
        const chatId = str(message['tool_call_id']);
        if (message['role'] === 'tool' && chatId !== null)
          results.set(chatId, { output: contentOf(message['content']), isError: false });
        const responsesId = str(message['call_id']);
        if (message['type'] === 'function_call_output' && responsesId !== null)
          results.set(responsesId, { output: contentOf(message['output']), isError: false });
        for (const b of list(message['content'])) {
          const block = obj(b);
          const useId = str(block?.['tool_use_id']);
          if (block?.['type'] === 'tool_result' && useId !== null)
            results.set(useId, {
              output: contentOf(block['content']),
              isError: block['is_error'] === true,
            });
        }
      }
    }
  }
  return results;
}

/** The model requests an event holds: an llm event's request, or a recorded fetch's JSON body. */
function requestsOf(event: Json): Json[] {
  if (event['type'] === 'llm') {
    const request = obj(event['request']);
    return request === undefined ? [] : [request];
  }
  if (event['type'] === 'env' && (event['kind'] === 'fetch' || event['kind'] === 'http')) {
    const body = obj(obj(event['input'])?.['body']);
    const parsed = obj(parseJson(str(body?.['text']) ?? ''));
    return parsed === undefined ? [] : [parsed];
  }
  return [];
}

/** A tool result's content: JSON text is shown as the value it encodes. */
function contentOf(content: unknown): unknown {
  if (typeof content === 'string') return parseJson(content) ?? content;
  // Anthropic: [{type: "text", text}] blocks; one text block is its text.
  const blocks = list(content);
  if (blocks.length === 1) {
    const text = str(obj(blocks[0])?.['text']);
    if (text !== null) return parseJson(text) ?? text;
  }
  return content ?? null;
}

/** OpenAI's `arguments` is JSON text; shown as the value it encodes when it parses. */
function argumentsOf(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? null;
  return parseJson(args) ?? args;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function seqOf(event: Json): number | null {
  const seq = event['seq'];
  return typeof seq === 'number' && Number.isInteger(seq) ? seq : null;
}
