// OpenAI wire-format fixtures: chat completions and Responses API bodies, their SSE streams,
// and error bodies, shaped as api.openai.com sends them. Text is not ASCII on purpose.
import { typed, type SseFrame } from './sse.js';

export const CHAT_MODEL = 'gpt-4o-mini';

const chatBase = {
  id: 'chatcmpl-Bx1',
  created: 1767607200,
  model: 'gpt-4o-mini-2024-07-18',
  system_fingerprint: 'fp_mock01',
  service_tier: 'default',
};

/** A plain chat completion. */
export const CHAT_TEXT = {
  ...chatBase,
  object: 'chat.completion',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: 'Bonjour, où êtes-vous ? 🌍',
        refusal: null,
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 21, completion_tokens: 9, total_tokens: 30 },
};

/** A chat completion asking for two tool calls. */
export const CHAT_TOOL_CALLS = {
  ...chatBase,
  id: 'chatcmpl-Bx2',
  object: 'chat.completion',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          {
            id: 'call_w1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          {
            id: 'call_w2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Lyon"' },
          },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 40, completion_tokens: 30, total_tokens: 70 },
};

const chunk = (delta: object, finish: string | null = null) => ({
  ...chatBase,
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
});

/** A streamed chat completion with usage (`stream_options.include_usage`). */
export const CHAT_STREAM: SseFrame[] = [
  { data: chunk({ role: 'assistant', content: '', refusal: null }) },
  { data: chunk({ content: 'Bonjour, ' }) },
  { data: chunk({ content: 'où êtes' }) },
  { data: chunk({ content: '-vous ? 🌍' }) },
  { data: chunk({}, 'stop') },
  { data: { ...chatBase, object: 'chat.completion.chunk', choices: [], usage: CHAT_TEXT.usage } },
  { data: '[DONE]' },
];

/** A streamed chat completion asking for a tool call, its arguments in pieces. */
export const CHAT_TOOL_STREAM: SseFrame[] = [
  {
    data: chunk({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          index: 0,
          id: 'call_s1',
          type: 'function',
          function: { name: 'get_weather', arguments: '' },
        },
      ],
    }),
  },
  { data: chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }) },
  { data: chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Zürich"}' } }] }) },
  { data: chunk({}, 'tool_calls') },
  { data: '[DONE]' },
];

/** OpenAI's error body. */
export function openaiError(message: string, type: string, code: string | null = null): object {
  return { error: { message, type, param: null, code } };
}

const responseBase = {
  object: 'response',
  created_at: 1767607200,
  model: 'gpt-4.1-mini-2025-04-14',
  instructions: 'Answer briefly.',
  parallel_tool_calls: true,
  temperature: 1,
  tool_choice: 'auto',
  tools: [],
  top_p: 1,
  error: null,
  incomplete_details: null,
};

const textItem = {
  id: 'msg_r1',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Grüße aus Köln.', annotations: [], logprobs: [] }],
};

const reasoningItem = {
  id: 'rs_r1',
  type: 'reasoning',
  summary: [{ type: 'summary_text', text: 'The user wants a greeting.' }],
};

/** A Responses API response with reasoning and text. */
export const RESPONSE_TEXT = {
  ...responseBase,
  id: 'resp_r1',
  status: 'completed',
  output: [reasoningItem, textItem],
  usage: {
    input_tokens: 14,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 11,
    output_tokens_details: { reasoning_tokens: 4 },
    total_tokens: 25,
  },
};

const functionItem = {
  id: 'fc_r2',
  type: 'function_call',
  status: 'completed',
  call_id: 'call_r2',
  name: 'lookup_order',
  arguments: '{"order_id":"O-7"}',
};

/** A Responses API response asking for a function call. */
export const RESPONSE_TOOL_CALL = {
  ...responseBase,
  id: 'resp_r2',
  status: 'completed',
  output: [functionItem],
  usage: { input_tokens: 30, output_tokens: 12, total_tokens: 42 },
};

/** The Responses API stream of RESPONSE_TEXT, typed events with sequence numbers. */
export const RESPONSE_STREAM: SseFrame[] = typed(
  ...[
    {
      type: 'response.created',
      response: { ...RESPONSE_TEXT, status: 'in_progress', output: [], usage: null },
    },
    {
      type: 'response.in_progress',
      response: { ...RESPONSE_TEXT, status: 'in_progress', output: [], usage: null },
    },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...reasoningItem, summary: [] },
    },
    {
      type: 'response.reasoning_summary_text.delta',
      item_id: 'rs_r1',
      output_index: 0,
      summary_index: 0,
      delta: 'The user wants ',
    },
    {
      type: 'response.reasoning_summary_text.delta',
      item_id: 'rs_r1',
      output_index: 0,
      summary_index: 0,
      delta: 'a greeting.',
    },
    { type: 'response.output_item.done', output_index: 0, item: reasoningItem },
    {
      type: 'response.output_item.added',
      output_index: 1,
      item: { ...textItem, status: 'in_progress', content: [] },
    },
    {
      type: 'response.output_text.delta',
      item_id: 'msg_r1',
      output_index: 1,
      content_index: 0,
      delta: 'Grüße ',
      logprobs: [],
    },
    {
      type: 'response.output_text.delta',
      item_id: 'msg_r1',
      output_index: 1,
      content_index: 0,
      delta: 'aus Köln.',
      logprobs: [],
    },
    {
      type: 'response.output_text.done',
      item_id: 'msg_r1',
      output_index: 1,
      content_index: 0,
      text: 'Grüße aus Köln.',
      logprobs: [],
    },
    { type: 'response.output_item.done', output_index: 1, item: textItem },
    { type: 'response.completed', response: RESPONSE_TEXT },
  ].map((event, sequence_number) => ({ ...event, sequence_number })),
);

/** The Responses API stream of RESPONSE_TOOL_CALL. */
export const RESPONSE_TOOL_STREAM: SseFrame[] = typed(
  ...[
    {
      type: 'response.created',
      response: { ...RESPONSE_TOOL_CALL, status: 'in_progress', output: [], usage: null },
    },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...functionItem, status: 'in_progress', arguments: '' },
    },
    {
      type: 'response.function_call_arguments.delta',
      item_id: 'fc_r2',
      output_index: 0,
      delta: '{"order_id":',
    },
    {
      type: 'response.function_call_arguments.delta',
      item_id: 'fc_r2',
      output_index: 0,
      delta: '"O-7"}',
    },
    {
      type: 'response.function_call_arguments.done',
      item_id: 'fc_r2',
      output_index: 0,
      arguments: '{"order_id":"O-7"}',
    },
    { type: 'response.output_item.done', output_index: 0, item: functionItem },
    { type: 'response.completed', response: RESPONSE_TOOL_CALL },
  ].map((event, sequence_number) => ({ ...event, sequence_number })),
);
