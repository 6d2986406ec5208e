// Anthropic wire-format fixtures: messages bodies, their SSE streams (message_start,
// content_block_*, message_delta, message_stop, with a ping), and error bodies, shaped as
// api.anthropic.com sends them.
import { typed, type SseFrame } from './sse.js';

export const CLAUDE_MODEL = 'claude-sonnet-5-5';

const messageBase = {
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-5-5-20260701',
  stop_sequence: null,
};

/** A plain text message; part of the prompt was read from the cache. */
export const MESSAGE_TEXT = {
  ...messageBase,
  id: 'msg_01Text',
  content: [{ type: 'text', text: 'Guten Tag — ça va? 🙂' }],
  stop_reason: 'end_turn',
  usage: {
    input_tokens: 20,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 100,
    output_tokens: 12,
  },
};

/** A message that thinks, says something, and asks for a tool. */
export const MESSAGE_TOOL_USE = {
  ...messageBase,
  id: 'msg_01Tool',
  content: [
    { type: 'thinking', thinking: 'I need the weather.', signature: 'sig_mock' },
    { type: 'text', text: 'Let me check.' },
    {
      type: 'tool_use',
      id: 'toolu_01A',
      name: 'get_weather',
      input: { city: 'Paris', unit: 'celsius' },
    },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 50, output_tokens: 40 },
};

/** The stream of a message: text, then a tool call whose input arrives in pieces. */
export const MESSAGE_STREAM: SseFrame[] = typed(
  {
    type: 'message_start',
    message: {
      ...messageBase,
      id: 'msg_01Stream',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 25, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'ping' },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Je vérifie ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'la météo…' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_01S', name: 'get_weather', input: {} },
  },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
  {
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' },
  },
  {
    type: 'content_block_delta',
    index: 1,
    delta: { type: 'input_json_delta', partial_json: 'ris"}' },
  },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 33 },
  },
  { type: 'message_stop' },
);

/** A stream the server ends with an in-band error after some text. */
export const MESSAGE_OVERLOADED_STREAM: SseFrame[] = typed(
  {
    type: 'message_start',
    message: {
      ...messageBase,
      id: 'msg_01Over',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 25, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Half an ans' } },
  { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
);

/** Anthropic's error body. */
export function anthropicError(type: string, message: string): object {
  return { type: 'error', error: { type, message }, request_id: 'req_011Mock' };
}
