import { describe, expect, it } from 'vitest';
import { accumulate } from '../../../test/mock-llm/accumulate.js';
import {
  CHAT_STREAM,
  CHAT_TEXT,
  CHAT_TOOL_CALLS,
  CHAT_TOOL_STREAM,
} from '../../../test/mock-llm/openai.js';
import { openaiChat } from './openai-chat.js';

describe('openai chat completions codec', () => {
  it('stores the conversation as sent (system messages included), lifts tools, keeps every other member as a param', () => {
    const tools = [
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
    ];
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
    ];
    const params = {
      temperature: 0.2,
      max_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: 'auto',
      response_format: { type: 'json_object' },
    };
    const request = openaiChat.mapRequest({ model: 'gpt-4o-mini', messages, tools, ...params });
    expect(request).toEqual({ system: null, messages, tools, params });
  });

  it('keeps members of an unexpected shape in params rather than reinterpreting them', () => {
    expect(openaiChat.mapRequest({ model: 'm', messages: 'hi', tools: 'none' })).toEqual({
      system: null,
      messages: [],
      tools: [],
      params: { messages: 'hi', tools: 'none' },
    });
  });

  it('reads a completion: text, finish reason, usage, response id and system fingerprint', () => {
    expect(openaiChat.readResponse(CHAT_TEXT)).toEqual({
      response: {
        text: 'Bonjour, où êtes-vous ? 🌍',
        reasoning: null,
        finish_reason: 'stop',
        tool_calls: [],
      },
      usage: { input_tokens: 21, output_tokens: 9, total_tokens: 30 },
      metadata: { response_id: 'chatcmpl-Bx1', system_fingerprint: 'fp_mock01' },
    });
  });

  it('reads tool calls with parsed arguments, keeping arguments that do not parse as their text', () => {
    const { response } = openaiChat.readResponse(CHAT_TOOL_CALLS);
    expect(response.text).toBeNull();
    expect(response.finish_reason).toBe('tool_calls');
    expect(response.tool_calls).toEqual([
      { tool_call_id: 'call_w1', tool_name: 'get_weather', input: { city: 'Paris' } },
      { tool_call_id: 'call_w2', tool_name: 'get_weather', input: '{"city":"Lyon"' },
    ]);
  });

  it('reads the reasoning text that compatible servers send', () => {
    const body = {
      choices: [{ index: 0, message: { content: 'ok', reasoning_content: 'because' } }],
    };
    expect(openaiChat.readResponse(body).response.reasoning).toBe('because');
  });

  it('never throws on a body of the wrong shape', () => {
    expect(openaiChat.readResponse('oops')).toEqual({
      response: { text: null, reasoning: null, finish_reason: null, tool_calls: [] },
      usage: null,
      metadata: { response_id: null, system_fingerprint: null },
    });
  });

  it('folds a stream into what the same completion reads as unstreamed', () => {
    const accumulator = accumulate(openaiChat, CHAT_STREAM);
    expect(accumulator.failure()).toBeUndefined();
    expect(accumulator.reading()).toEqual(openaiChat.readResponse(CHAT_TEXT));
  });

  it('folds tool-call deltas: id and name once, arguments appended', () => {
    expect(accumulate(openaiChat, CHAT_TOOL_STREAM).reading().response).toEqual({
      text: null,
      reasoning: null,
      finish_reason: 'tool_calls',
      tool_calls: [
        { tool_call_id: 'call_s1', tool_name: 'get_weather', input: { city: 'Zürich' } },
      ],
    });
  });

  it('reports what arrived of a stream cut short, and an in-band error chunk as the failure', () => {
    const accumulator = accumulate(openaiChat, [
      ...CHAT_TOOL_STREAM.slice(0, 2),
      { data: { error: { message: 'The server had an error', type: 'server_error' } } },
    ]);
    expect(accumulator.reading().response.tool_calls).toEqual([
      { tool_call_id: 'call_s1', tool_name: 'get_weather', input: '{"ci' },
    ]);
    expect(accumulator.failure()).toEqual({
      name: 'server_error',
      message: 'The server had an error',
    });
  });
});
