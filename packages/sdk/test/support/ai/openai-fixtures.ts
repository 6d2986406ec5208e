// Test support: OpenAI chat-completions answers for the mock server (mock-openai-server.ts), as
// the API sends them, for the tests that drive the real @ai-sdk/openai provider.

// Long enough to be a real-looking key: a test that turns redaction off shows that the key
// stays out of the record only because the middleware never copies it.
export const API_KEY = 'sk-test-runback-3f9a7c21d0e84b6a';
export const CREATED = 1767607200; // 2026-01-05T10:00:00Z
export const MODEL = 'gpt-4o-mini-2024-07-18';

export const completion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: CREATED,
  model: MODEL,
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Refund approved.' },
      finish_reason: 'stop',
      logprobs: null,
    },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
};

/** A completion asking for the get_order tool. */
export const toolCallCompletion = {
  ...completion,
  id: 'chatcmpl-tool',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'get_order', arguments: '{"id":"O-7"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
      logprobs: null,
    },
  ],
};

export const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: 'chatcmpl-2',
  object: 'chat.completion.chunk',
  created: CREATED,
  model: MODEL,
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
export const usageChunk = {
  id: 'chatcmpl-2',
  object: 'chat.completion.chunk',
  created: CREATED,
  model: MODEL,
  choices: [],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
};
export const textEvents = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Refund ' }),
  chunk({ content: 'approved.' }),
  chunk({}, 'stop'),
  usageChunk,
];
export const toolEvents = [
  chunk({
    role: 'assistant',
    tool_calls: [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_order', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"id":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"O-7"}' } }] }),
  chunk({}, 'tool_calls'),
  usageChunk,
];
export const serverError = {
  error: {
    message: 'The server had an error while processing your request.',
    type: 'server_error',
    param: null,
    code: null,
  },
};
