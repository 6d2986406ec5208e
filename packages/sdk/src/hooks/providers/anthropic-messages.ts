// Anthropic messages (POST …/messages with an `anthropic-version` header). `system` is the
// system prompt (a string or text blocks); the response is a list of content blocks: text,
// thinking (stored as reasoning) and tool_use. Server-side tool blocks stay in `raw` and
// `chunks` only.
import type { EventError, LlmToolCall } from '../../core/events.js';
import type { ProviderCodec, ResponseReading, StreamAccumulator } from './codec.js';
import {
  arrayOf,
  isRecord,
  joinedOrNull,
  numberOrNull,
  parseJsonOr,
  recordOf,
  stringOrNull,
  toolCall,
  type JsonObject,
} from './json.js';
import { providerErrorOf } from './provider-error.js';
import { splitRequest } from './request-shape.js';
import type { SseEvent } from './sse.js';
import { usageOf } from './usage.js';

/** The Anthropic messages codec. */
export const anthropicMessages: ProviderCodec = {
  api: 'anthropic.messages',
  provider: 'anthropic',
  // Other APIs have paths ending in /messages too; Anthropic's clients always send the version.
  matches: (path, headers) => path.endsWith('/messages') && headers.has('anthropic-version'),
  mapRequest: (body) => splitRequest(body, { system: 'system', messages: 'messages' }),
  readResponse: readMessage,
  accumulator: () => new MessageAccumulator(),
};

function readMessage(body: unknown): ResponseReading {
  const root = recordOf(body);
  const text: string[] = [];
  const thinking: string[] = [];
  const toolCalls: LlmToolCall[] = [];
  for (const block of arrayOf(root['content']).filter(isRecord)) {
    switch (block['type']) {
      case 'text':
        text.push(stringOrNull(block['text']) ?? '');
        break;
      case 'thinking':
        thinking.push(stringOrNull(block['thinking']) ?? '');
        break;
      case 'tool_use':
        toolCalls.push(toolCall(block['id'], block['name'], block['input']));
        break;
    }
  }
  return {
    response: {
      text: joinedOrNull(text),
      reasoning: joinedOrNull(thinking),
      finish_reason: stringOrNull(root['stop_reason']),
      tool_calls: toolCalls,
    },
    // Anthropic counts cached prompt tokens apart from `input_tokens`; they are added in, so that
    // `input_tokens` is the whole prompt for every provider (OpenAI's prompt_tokens include
    // cached tokens). The split stays in `raw`.
    usage: usageOf(root['usage'], {
      input: 'input_tokens',
      output: 'output_tokens',
      moreInput: ['cache_creation_input_tokens', 'cache_read_input_tokens'],
    }),
    metadata: { response_id: stringOrNull(root['id']) },
  };
}

interface PendingBlock {
  readonly block: JsonObject;
  json: string;
}

/**
 * Folds the stream into the message it describes, as the client's MessageStream does:
 * `message_start` gives the message, content blocks grow by their deltas (a tool's input
 * arrives as JSON text in pieces), `message_delta` sets the stop reason and final usage.
 */
class MessageAccumulator implements StreamAccumulator {
  #message: JsonObject = {};
  #usage: JsonObject = {};
  readonly #blocks = new Map<number, PendingBlock>();
  #failure: EventError | undefined;

  add(event: SseEvent): void {
    const data = recordOf(event.data);
    switch (stringOrNull(data['type']) ?? event.event) {
      case 'message_start':
        this.#message = recordOf(data['message']);
        this.#usage = { ...recordOf(this.#message['usage']) };
        return;
      case 'content_block_start':
        this.#blocks.set(numberOrNull(data['index']) ?? this.#blocks.size, {
          block: { ...recordOf(data['content_block']) },
          json: '',
        });
        return;
      case 'content_block_delta':
        this.#applyDelta(
          this.#blocks.get(numberOrNull(data['index']) ?? -1),
          recordOf(data['delta']),
        );
        return;
      case 'message_delta':
        this.#message = { ...this.#message, ...recordOf(data['delta']) };
        for (const [name, value] of Object.entries(recordOf(data['usage']))) {
          if (value !== null && value !== undefined) this.#usage[name] = value;
        }
        return;
      case 'error':
        this.#failure = providerErrorOf(data['error'], 'the stream reported an error');
        return;
    }
  }

  #applyDelta(pending: PendingBlock | undefined, delta: JsonObject): void {
    if (pending === undefined) return;
    switch (delta['type']) {
      case 'text_delta':
        appendTo(pending.block, 'text', delta['text']);
        return;
      case 'thinking_delta':
        appendTo(pending.block, 'thinking', delta['thinking']);
        return;
      case 'input_json_delta':
        pending.json += stringOrNull(delta['partial_json']) ?? '';
        return;
    }
  }

  reading(): ResponseReading {
    const content = [...this.#blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, { block, json }]) =>
        json === '' ? block : { ...block, input: parseJsonOr(json, json) },
      );
    return readMessage({ ...this.#message, content, usage: this.#usage });
  }

  failure(): EventError | undefined {
    return this.#failure;
  }
}

/** Appends a text delta to a block's member. */
function appendTo(block: JsonObject, name: string, piece: unknown): void {
  block[name] = `${stringOrNull(block[name]) ?? ''}${stringOrNull(piece) ?? ''}`;
}
