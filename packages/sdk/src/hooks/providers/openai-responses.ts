// The OpenAI Responses API (POST …/responses). `instructions` is the system prompt and `input`
// the conversation (a plain string is one user message). The response is a list of output
// items: message text, reasoning summaries, function calls; other items (built-in tool calls)
// stay in `raw` and `chunks` only.
import type { EventError, LlmToolCall } from '../../core/events.js';
import type { ProviderCodec, ResponseReading, StreamAccumulator } from './codec.js';
import {
  arrayOf,
  isRecord,
  joinedOrNull,
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

/** The OpenAI Responses codec. */
export const openaiResponses: ProviderCodec = {
  api: 'openai.responses',
  provider: 'openai',
  matches: (path) => path.endsWith('/responses'),
  mapRequest: (body) =>
    splitRequest(body, {
      system: 'instructions',
      messages: 'input',
      toMessages: (input) =>
        typeof input === 'string'
          ? [{ role: 'user', content: input }]
          : Array.isArray(input)
            ? input
            : undefined,
    }),
  readResponse: readResponseObject,
  accumulator: () => new ResponsesAccumulator(),
};

/** What the output items say. */
interface OutputParts {
  readonly text: string[];
  readonly reasoning: string[];
  readonly toolCalls: LlmToolCall[];
}

function readResponseObject(body: unknown): ResponseReading {
  const root = recordOf(body);
  const parts: OutputParts = { text: [], reasoning: [], toolCalls: [] };
  for (const item of arrayOf(root['output']).filter(isRecord)) collectItem(item, parts);
  return {
    response: {
      text: joinedOrNull(parts.text),
      reasoning: joinedOrNull(parts.reasoning),
      finish_reason: finishReasonOf(root),
      tool_calls: parts.toolCalls,
    },
    usage: usageOf(root['usage'], {
      input: 'input_tokens',
      output: 'output_tokens',
      total: 'total_tokens',
    }),
    metadata: { response_id: stringOrNull(root['id']) },
  };
}

function collectItem(item: JsonObject, parts: OutputParts): void {
  switch (item['type']) {
    case 'message':
      parts.text.push(...textsOf(item['content'], 'output_text'));
      return;
    case 'reasoning':
      parts.reasoning.push(
        ...textsOf(item['summary'], 'summary_text'),
        ...textsOf(item['content'], 'reasoning_text'),
      );
      return;
    case 'function_call':
      parts.toolCalls.push(toolCallFromArguments(item['call_id'], item['name'], item['arguments']));
      return;
    case 'custom_tool_call':
      parts.toolCalls.push(toolCall(item['call_id'], item['name'], item['input']));
      return;
  }
}

function textsOf(list: unknown, type: string): string[] {
  return arrayOf(list)
    .filter(isRecord)
    .filter((part) => part['type'] === type && typeof part['text'] === 'string')
    .map((part) => part['text'] as string);
}

/**
 * The Responses API has a status rather than a finish reason: `completed`, `failed`, or
 * `incomplete` with a reason (`max_output_tokens`, `content_filter`), which is what is stored.
 */
function finishReasonOf(root: JsonObject): string | null {
  if (root['status'] === 'incomplete') {
    return stringOrNull(recordOf(root['incomplete_details'])['reason']) ?? 'incomplete';
  }
  return stringOrNull(root['status']);
}

/**
 * Folds the typed stream events. The terminal event (`response.completed`, `.incomplete`,
 * `.failed`) carries the whole response, which is read as a non-streamed one; a stream cut
 * short is read from the text deltas and the output items completed so far.
 */
class ResponsesAccumulator implements StreamAccumulator {
  #snapshot: JsonObject = {};
  #final = false;
  readonly #parts: OutputParts = { text: [], reasoning: [], toolCalls: [] };
  #failure: EventError | undefined;

  add(event: SseEvent): void {
    const data = recordOf(event.data);
    switch (stringOrNull(data['type']) ?? event.event) {
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        this.#snapshot = recordOf(data['response']);
        return;
      case 'response.failed':
        this.#failure = providerErrorOf(recordOf(data['response'])['error'], 'the response failed');
        this.#finish(data);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.#finish(data);
        return;
      case 'response.output_text.delta':
        this.#pushDelta(this.#parts.text, data);
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.#pushDelta(this.#parts.reasoning, data);
        return;
      case 'response.output_item.done': {
        // Only completed tool calls: the text of message and reasoning items came as deltas.
        const item = recordOf(data['item']);
        if (item['type'] === 'function_call' || item['type'] === 'custom_tool_call') {
          collectItem(item, this.#parts);
        }
        return;
      }
      case 'error':
        this.#failure = providerErrorOf(
          isRecord(data['error'])
            ? data['error']
            : { code: data['code'], message: data['message'] },
          'the stream reported an error',
        );
        return;
    }
  }

  #finish(data: JsonObject): void {
    this.#snapshot = recordOf(data['response']);
    this.#final = true;
  }

  #pushDelta(into: string[], data: JsonObject): void {
    if (typeof data['delta'] === 'string') into.push(data['delta']);
  }

  reading(): ResponseReading {
    if (this.#final) return readResponseObject(this.#snapshot);
    return {
      response: {
        text: joinedOrNull(this.#parts.text),
        reasoning: joinedOrNull(this.#parts.reasoning),
        finish_reason: null,
        tool_calls: this.#parts.toolCalls,
      },
      usage: null,
      metadata: { response_id: stringOrNull(this.#snapshot['id']) },
    };
  }

  failure(): EventError | undefined {
    return this.#failure;
  }
}
