import { describe, expect, it } from 'vitest';
import { accumulate } from '../../../test/mock-llm/accumulate.js';
import {
  MESSAGE_OVERLOADED_STREAM,
  MESSAGE_STREAM,
  MESSAGE_TEXT,
  MESSAGE_TOOL_USE,
} from '../../../test/mock-llm/anthropic.js';
import { anthropicMessages } from './anthropic-messages.js';

describe('anthropic messages codec', () => {
  it('is recognised by path and the anthropic-version header together', () => {
    expect(
      anthropicMessages.matches('/v1/messages', new Headers({ 'anthropic-version': '2023-06-01' })),
    ).toBe(true);
    expect(anthropicMessages.matches('/v1/messages', new Headers())).toBe(false);
    expect(
      anthropicMessages.matches(
        '/v1/messages/count_tokens',
        new Headers({ 'anthropic-version': '2023-06-01' }),
      ),
    ).toBe(false);
  });

  it('lifts system, messages and tools; every other member is a param', () => {
    const system = [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }];
    const messages = [{ role: 'user', content: 'Weather?' }];
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' } }];
    expect(
      anthropicMessages.mapRequest({
        model: 'claude-sonnet-5-5',
        system,
        messages,
        tools,
        max_tokens: 256,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tool_choice: { type: 'auto' },
      }),
    ).toEqual({
      system,
      messages,
      tools,
      params: {
        max_tokens: 256,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tool_choice: { type: 'auto' },
      },
    });
  });

  it('reads text and counts cached prompt tokens as input', () => {
    expect(anthropicMessages.readResponse(MESSAGE_TEXT)).toEqual({
      response: {
        text: 'Guten Tag — ça va? 🙂',
        reasoning: null,
        finish_reason: 'end_turn',
        tool_calls: [],
      },
      usage: { input_tokens: 120, output_tokens: 12, total_tokens: 132 },
      metadata: { response_id: 'msg_01Text' },
    });
  });

  it('reads thinking as reasoning and tool_use blocks as tool calls', () => {
    expect(anthropicMessages.readResponse(MESSAGE_TOOL_USE).response).toEqual({
      text: 'Let me check.',
      reasoning: 'I need the weather.',
      finish_reason: 'tool_use',
      tool_calls: [
        {
          tool_call_id: 'toolu_01A',
          tool_name: 'get_weather',
          input: { city: 'Paris', unit: 'celsius' },
        },
      ],
    });
  });

  it('folds a stream into its message: text deltas, tool input JSON in pieces, final usage', () => {
    const accumulator = accumulate(anthropicMessages, MESSAGE_STREAM);
    expect(accumulator.failure()).toBeUndefined();
    expect(accumulator.reading()).toEqual({
      response: {
        text: 'Je vérifie la météo…',
        reasoning: null,
        finish_reason: 'tool_use',
        tool_calls: [
          { tool_call_id: 'toolu_01S', tool_name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      usage: { input_tokens: 25, output_tokens: 33, total_tokens: 58 },
      metadata: { response_id: 'msg_01Stream' },
    });
  });

  it('keeps a tool input cut short as its text, and an error event as the failure', () => {
    expect(
      accumulate(anthropicMessages, MESSAGE_STREAM.slice(0, 9)).reading().response.tool_calls,
    ).toEqual([{ tool_call_id: 'toolu_01S', tool_name: 'get_weather', input: '{"city": "Pa' }]);
    const overloaded = accumulate(anthropicMessages, MESSAGE_OVERLOADED_STREAM);
    expect(overloaded.failure()).toEqual({ name: 'overloaded_error', message: 'Overloaded' });
    expect(overloaded.reading().response.text).toBe('Half an ans');
  });

  it('folds thinking deltas into reasoning', () => {
    const events = [
      { type: 'message_start', message: { id: 'msg_t', content: [], usage: { input_tokens: 3 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Hmm, ' },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'rain.' },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 's' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 4 } },
    ].map((data) => ({ event: data.type, data }));
    expect(accumulate(anthropicMessages, events).reading()).toEqual({
      response: { text: null, reasoning: 'Hmm, rain.', finish_reason: 'end_turn', tool_calls: [] },
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
      metadata: { response_id: 'msg_t' },
    });
  });
});
