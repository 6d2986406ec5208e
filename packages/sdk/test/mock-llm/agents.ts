// The mock server's side of the real-client agents in test/fixtures/agents: for each agent, a
// route that answers every request from its content (so concurrent requests get the same answers
// whatever order they arrive in), in the providers' wire formats. Bodies list their members in
// the providers' order (not sorted), so that a record that sorted them would show.
import {
  chunk,
  completion,
  toolCallCompletion,
  usageChunk,
} from '../support/ai/openai-fixtures.js';
import { openaiError } from './openai.js';
import type { MockReply, ReceivedRequest } from './server.js';
import { typed, type SseFrame } from './sse.js';

/** Answers one request, or undefined to fall back to the server's queue. */
export type Route = (request: ReceivedRequest) => MockReply | undefined;

interface Body {
  readonly model?: string;
  readonly stream?: boolean;
  readonly previous_response_id?: string;
  readonly messages?: readonly { readonly role: string; readonly content: unknown }[];
}

const bodyOf = (request: ReceivedRequest): Body =>
  request.body === '' ? {} : (JSON.parse(request.body) as Body);

const CREATED = 1767607200;

/** Chat: two parallel tool calls; once the tool results are in, a 429 first, then the answer. */
export function openaiChatRoute(): Route {
  let limited = false;
  return (request) => {
    const body = bodyOf(request);
    if (!(body.messages ?? []).some((m) => m.role === 'tool')) {
      return {
        json: {
          id: 'chatcmpl-par1',
          object: 'chat.completion',
          created: CREATED,
          model: 'gpt-4o-mini-2024-07-18',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  {
                    id: 'call_a',
                    type: 'function',
                    function: { name: 'get_score', arguments: '{"applicant":"A-17"}' },
                  },
                  {
                    id: 'call_b',
                    type: 'function',
                    function: { name: 'get_score', arguments: '{"applicant":"A-18"}' },
                  },
                ],
                refusal: null,
              },
              logprobs: null,
              finish_reason: 'tool_calls',
            },
          ],
          usage: {
            prompt_tokens: 48,
            completion_tokens: 31,
            total_tokens: 79,
            prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          },
          system_fingerprint: 'fp_par',
        },
      };
    }
    if (!limited) {
      limited = true;
      return {
        status: 429,
        json: openaiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'),
        headers: {
          'retry-after-ms': '25',
          'x-ratelimit-limit-requests': '500',
          'x-ratelimit-remaining-requests': '0',
          'set-cookie': 'edge=sticky-9f2; Path=/',
        },
      };
    }
    return {
      json: {
        id: 'chatcmpl-fin1',
        object: 'chat.completion',
        created: CREATED,
        model: 'gpt-4o-mini-2024-07-18',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Approve A-17; refer A-18.', refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 9, total_tokens: 129 },
        system_fingerprint: 'fp_par',
      },
      headers: { 'x-request-id': 'req_final_77' },
    };
  };
}

/** Chat refused: 503 with `x-should-retry: false`, every time. */
export function openai503Route(): Route {
  return () => ({
    status: 503,
    json: openaiError('The engine is currently overloaded', 'server_error'),
    headers: { 'x-should-retry': 'false', 'x-request-id': 'req_overloaded_1' },
  });
}

/** Anthropic: a streamed tool_use per city; with tool results, a streamed text answer. */
export function anthropicStreamRoute(): Route {
  return (request) => {
    const messages = bodyOf(request).messages ?? [];
    if (messages.length === 1) {
      const city = String(messages[0]?.content).replace(/^Weather in (.*)\?$/, '$1');
      return { sse: toolUseStream(city) };
    }
    return { sse: textStream(['Paris is 14 °C', ' and Rome 19 °C; ', 'both clear.']) };
  };
}

function messageStart(id: string): Record<string, unknown> & { type: string } {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5-20260701',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 31, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  };
}

function toolUseStream(city: string): SseFrame[] {
  const json = JSON.stringify({ city });
  return typed(
    messageStart(`msg_tool_${city}`),
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_${city}`, name: 'get_weather', input: {} },
    },
    { type: 'ping' },
    {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: json.slice(0, 5) },
    },
    {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: json.slice(5) },
    },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 17 },
    },
    { type: 'message_stop' },
  );
}

function textStream(pieces: readonly string[]): SseFrame[] {
  return typed(
    messageStart('msg_text_1'),
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ...pieces.map((text) => ({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text },
    })),
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 14 },
    },
    { type: 'message_stop' },
  );
}

/** AI SDK over chat completions: a tool call, then its answer; a streamed text for streams. */
export function aiSdkRoute(): Route {
  return (request) => {
    const body = bodyOf(request);
    if (body.stream === true) {
      const events = [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Refunded ' }),
        chunk({ content: 'O-7 (12.50).' }),
        chunk({}, 'stop'),
        usageChunk,
      ];
      return { sse: [...events.map((data) => ({ data })), { data: '[DONE]' }] };
    }
    if ((body.messages ?? []).some((m) => m.role === 'tool')) return { json: completion };
    return { json: toolCallCompletion };
  };
}

const responseBase = {
  object: 'response',
  created_at: CREATED,
  model: 'gpt-4o-mini-2024-07-18',
  parallel_tool_calls: true,
  tool_choice: 'auto',
  error: null,
  incomplete_details: null,
};

/** Responses API: a function call; given `previous_response_id`, the text answer. */
export function openaiResponsesRoute(): Route {
  return (request) => {
    if (bodyOf(request).previous_response_id === undefined) {
      return {
        json: {
          id: 'resp_call1',
          ...responseBase,
          status: 'completed',
          output: [
            {
              id: 'fc_1',
              type: 'function_call',
              status: 'completed',
              call_id: 'call_w1',
              name: 'get_weather',
              arguments: '{"city":"Paris"}',
            },
          ],
          usage: { input_tokens: 30, output_tokens: 9, total_tokens: 39 },
        },
      };
    }
    return {
      json: {
        id: 'resp_text1',
        ...responseBase,
        status: 'completed',
        output: [
          {
            id: 'msg_1',
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'Paris: 14 °C, clear.', annotations: [] }],
          },
        ],
        usage: {
          input_tokens: 52,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 8,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 60,
        },
      },
    };
  };
}

/** Behind a gateway: answers on /v1 only, naming the model the gateway sent. */
export function gatewayRoute(): Route {
  return (request) => {
    if (!request.path.startsWith('/v1/')) {
      return { status: 404, json: openaiError(`no route ${request.path}`, 'not_found') };
    }
    const body = bodyOf(request) as Body & { user?: string };
    return {
      json: {
        id: 'chatcmpl-gw1',
        object: 'chat.completion',
        created: CREATED,
        model: body.model ?? '',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: `Yes, for ${body.user ?? 'nobody'}.` },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 6, completion_tokens: 4, total_tokens: 10 },
      },
    };
  };
}
