// OpenAI chat completions (POST …/chat/completions), also spoken by many OpenAI-compatible
// servers. The system prompt is a message of the conversation (role system or developer), so
// `request.system` is null and the messages are stored as sent. The event describes the first
// choice; `raw` keeps every choice.
import type { EventError, LlmToolCall } from '../../core/events.js';
import type { ProviderCodec, ResponseReading, StreamAccumulator } from './codec.js';
import {
  arrayOf,
  isRecord,
  joinedOrNull,
  numberOrNull,
  recordOf,
  stringOrNull,
  toolCall,
  toolCallFromArguments,
  type JsonObject,
} from './json.js';
import { providerErrorOf } from './provider-error.js';
import { splitRequest } from './request-shape.js';
import type { SseEvent } from './sse.js';
import { usageOf } from './usage.js';

/** The OpenAI chat completions codec. */
export const openaiChat: ProviderCodec = {
  api: 'openai.chat.completions',
  provider: 'openai',
  matches: (path) => path.endsWith('/chat/completions'),
  mapRequest: (body) => splitRequest(body, { messages: 'messages' }),
  readResponse: readChatCompletion,
  accumulator: () => new ChatAccumulator(),
};

function readChatCompletion(body: unknown): ResponseReading {
  const root = recordOf(body);
  const choice = firstChoice(root['choices']);
  const message = recordOf(choice['message']);
  return reading(root, {
    text: stringOrNull(message['content']),
    reasoning: reasoningOf(message),
    finish_reason: stringOrNull(choice['finish_reason']),
    tool_calls: arrayOf(message['tool_calls']).filter(isRecord).map(chatToolCall),
  });
}

function reading(root: JsonObject, response: ResponseReading['response']): ResponseReading {
  return {
    response,
    usage: usageOf(root['usage'], {
      input: 'prompt_tokens',
      output: 'completion_tokens',
      total: 'total_tokens',
    }),
    metadata: {
      response_id: stringOrNull(root['id']),
      system_fingerprint: stringOrNull(root['system_fingerprint']),
    },
  };
}

/** The choice with index 0 (or the first one listed). */
function firstChoice(choices: unknown): JsonObject {
  const list = arrayOf(choices).filter(isRecord);
  return list.find((choice) => choice['index'] === 0) ?? list[0] ?? {};
}

/** OpenAI itself sends no reasoning text; compatible servers send `reasoning_content` or `reasoning`. */
function reasoningOf(message: JsonObject): string | null {
  return stringOrNull(message['reasoning_content']) ?? stringOrNull(message['reasoning']);
}

function chatToolCall(call: JsonObject): LlmToolCall {
  // Custom tools take free text, which is their input as it is.
  if (call['type'] === 'custom') {
    const custom = recordOf(call['custom']);
    return toolCall(call['id'], custom['name'], custom['input']);
  }
  const fn = recordOf(call['function']);
  return toolCallFromArguments(call['id'], fn['name'], fn['arguments']);
}

interface PendingToolCall {
  id: unknown;
  type: unknown;
  name: unknown;
  arguments: string;
}

/**
 * Folds `chat.completion.chunk` events as the openai client's own ChatCompletionStream does:
 * content and tool-call arguments append, a tool call's id and name are set when sent.
 */
class ChatAccumulator implements StreamAccumulator {
  #id: string | null = null;
  #fingerprint: string | null = null;
  #usage: unknown;
  #content: string[] = [];
  #reasoning: string[] = [];
  #finishReason: string | null = null;
  readonly #calls = new Map<number, PendingToolCall>();
  #failure: EventError | undefined;

  add(event: SseEvent): void {
    const chunk = event.data;
    if (!isRecord(chunk)) return; // `[DONE]`
    // A server that fails mid-stream sends `{error: {...}}`; the client throws it as an APIError.
    if (isRecord(chunk['error'])) {
      this.#failure = providerErrorOf(chunk['error'], 'the stream reported an error');
      return;
    }
    this.#id ??= stringOrNull(chunk['id']);
    this.#fingerprint = stringOrNull(chunk['system_fingerprint']) ?? this.#fingerprint;
    if (chunk['usage'] !== undefined && chunk['usage'] !== null) this.#usage = chunk['usage'];
    const choice = arrayOf(chunk['choices'])
      .filter(isRecord)
      .find((c) => (c['index'] ?? 0) === 0);
    if (choice === undefined) return;
    this.#finishReason = stringOrNull(choice['finish_reason']) ?? this.#finishReason;
    const delta = recordOf(choice['delta']);
    const content = stringOrNull(delta['content']);
    if (content !== null) this.#content.push(content);
    const reasoning = reasoningOf(delta);
    if (reasoning !== null) this.#reasoning.push(reasoning);
    for (const call of arrayOf(delta['tool_calls']).filter(isRecord)) this.#addToolCall(call);
  }

  #addToolCall(delta: JsonObject): void {
    const index = numberOrNull(delta['index']) ?? this.#calls.size;
    const call = this.#calls.get(index) ?? { id: null, type: null, name: null, arguments: '' };
    this.#calls.set(index, call);
    if (delta['id'] !== undefined && delta['id'] !== null) call.id = delta['id'];
    if (typeof delta['type'] === 'string') call.type = delta['type'];
    const fn = recordOf(delta['function'] ?? delta['custom']);
    if (typeof fn['name'] === 'string' && fn['name'] !== '') call.name = fn['name'];
    const piece = fn['arguments'] ?? fn['input'];
    if (typeof piece === 'string') call.arguments += piece;
  }

  reading(): ResponseReading {
    const calls = [...this.#calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return reading(
      { id: this.#id, system_fingerprint: this.#fingerprint, usage: this.#usage },
      {
        text: joinedOrNull(this.#content),
        reasoning: joinedOrNull(this.#reasoning),
        finish_reason: this.#finishReason,
        tool_calls: calls.map((call) =>
          call.type === 'custom'
            ? toolCall(call.id, call.name, call.arguments)
            : toolCallFromArguments(call.id, call.name, call.arguments),
        ),
      },
    );
  }

  failure(): EventError | undefined {
    return this.#failure;
  }
}
