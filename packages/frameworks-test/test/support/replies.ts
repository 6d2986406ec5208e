// What the mock model API answers each framework agent, built on the OpenAI wire fixtures of
// packages/sdk/test/mock-llm: a first answer asking for two lookups at once (Paris, then Lyon),
// then the final answer; for the AI SDK agent, a JSON object and a streamed JSON object.
import type { MockReply } from '../../../sdk/test/mock-llm/server.js';
import {
  CHAT_TEXT,
  CHAT_TOOL_CALLS,
  RESPONSE_TEXT,
  RESPONSE_TOOL_CALL,
} from '../../../sdk/test/mock-llm/openai.js';
import type { SseFrame } from '../../../sdk/test/mock-llm/sse.js';

const CITIES = ['Paris', 'Lyon'] as const;
const ANSWER = 'Lyon is warmer (17.25 °C, sun) than Paris (14.5 °C, rain). ☀️';

/** Chat completions: two lookup calls, then `ANSWER` (as a stream when `stream`). */
export function chatToolLoop(stream: boolean): MockReply[] {
  const calls = structuredClone(CHAT_TOOL_CALLS);
  (calls.choices[0] as { message: { tool_calls: unknown[] } }).message.tool_calls = CITIES.map(
    (city, i) => ({
      id: `call_${city.toLowerCase()}_${i}`,
      type: 'function',
      function: { name: 'lookup', arguments: JSON.stringify({ city }) },
    }),
  );
  return [{ json: calls }, stream ? { sse: chatStream(ANSWER) } : { json: chatText(ANSWER) }];
}

/** The Responses API: two function calls in one response, then `ANSWER`. */
export function responsesToolLoop(): MockReply[] {
  const calls = {
    ...RESPONSE_TOOL_CALL,
    output: CITIES.map((city, i) => ({
      id: `fc_${i}`,
      type: 'function_call',
      status: 'completed',
      call_id: `call_${city.toLowerCase()}`,
      name: 'lookup',
      arguments: JSON.stringify({ city }),
    })),
  };
  const text = {
    ...RESPONSE_TEXT,
    id: 'resp_final',
    output: [
      {
        id: 'msg_final',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: ANSWER, annotations: [], logprobs: [] }],
      },
    ],
  };
  return [{ json: calls }, { json: text }];
}

/** generateObject's answer, then streamObject's, streamed in small pieces. */
export function structuredOutputs(): MockReply[] {
  const one = { city: 'Paris', temp_c: 14.5, sky: 'rain' };
  const both = { cities: [one, { city: 'Lyon', temp_c: 17.25, sky: 'sun' }] };
  return [{ json: chatText(JSON.stringify(one)) }, { sse: chatStream(JSON.stringify(both), 9) }];
}

function chatText(content: string): object {
  const reply = structuredClone(CHAT_TEXT);
  (reply.choices[0] as { message: { content: string } }).message.content = content;
  return reply;
}

/** A chat completion stream of `content` in pieces of `size` characters, with usage. */
function chatStream(content: string, size = 12): SseFrame[] {
  const base = {
    id: 'chatcmpl-stream',
    created: CHAT_TEXT.created,
    model: CHAT_TEXT.model,
    system_fingerprint: CHAT_TEXT.system_fingerprint,
    object: 'chat.completion.chunk',
  };
  const chunk = (delta: object, finish: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] },
  });
  const pieces: SseFrame[] = [chunk({ role: 'assistant', content: '' })];
  for (let i = 0; i < content.length; i += size) {
    pieces.push(chunk({ content: content.slice(i, i + size) }));
  }
  pieces.push(chunk({}, 'stop'));
  pieces.push({ data: { ...base, choices: [], usage: CHAT_TEXT.usage } });
  pieces.push({ data: '[DONE]' });
  return pieces;
}
