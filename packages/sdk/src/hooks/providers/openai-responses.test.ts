import { describe, expect, it } from 'vitest';
import { accumulate } from '../../../test/mock-llm/accumulate.js';
import {
  RESPONSE_STREAM,
  RESPONSE_TEXT,
  RESPONSE_TOOL_CALL,
  RESPONSE_TOOL_STREAM,
} from '../../../test/mock-llm/openai.js';
import { openaiResponses } from './openai-responses.js';

describe('openai responses codec', () => {
  it('maps instructions to system and input to messages; a string input is one user message', () => {
    const tools = [{ type: 'function', name: 'lookup_order', parameters: {} }];
    expect(
      openaiResponses.mapRequest({
        model: 'gpt-4.1-mini',
        instructions: 'Answer briefly.',
        input: 'Hallo',
        tools,
        reasoning: { effort: 'low' },
        store: false,
      }),
    ).toEqual({
      system: 'Answer briefly.',
      messages: [{ role: 'user', content: 'Hallo' }],
      tools,
      params: { reasoning: { effort: 'low' }, store: false },
    });
    const input = [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }];
    expect(openaiResponses.mapRequest({ model: 'm', input })).toEqual({
      system: null,
      messages: input,
      tools: [],
      params: {},
    });
  });

  it('reads output text, reasoning summary, status and usage', () => {
    expect(openaiResponses.readResponse(RESPONSE_TEXT)).toEqual({
      response: {
        text: 'Grüße aus Köln.',
        reasoning: 'The user wants a greeting.',
        finish_reason: 'completed',
        tool_calls: [],
      },
      usage: { input_tokens: 14, output_tokens: 11, total_tokens: 25 },
      metadata: { response_id: 'resp_r1' },
    });
  });

  it('reads function calls by call_id, and an incomplete response by its reason', () => {
    expect(openaiResponses.readResponse(RESPONSE_TOOL_CALL).response.tool_calls).toEqual([
      { tool_call_id: 'call_r2', tool_name: 'lookup_order', input: { order_id: 'O-7' } },
    ]);
    const incomplete = {
      ...RESPONSE_TEXT,
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    };
    expect(openaiResponses.readResponse(incomplete).response.finish_reason).toBe(
      'max_output_tokens',
    );
  });

  it('reads a whole stream as its terminal response', () => {
    for (const [stream, body] of [
      [RESPONSE_STREAM, RESPONSE_TEXT],
      [RESPONSE_TOOL_STREAM, RESPONSE_TOOL_CALL],
    ] as const) {
      const accumulator = accumulate(openaiResponses, stream);
      expect(accumulator.failure()).toBeUndefined();
      expect(accumulator.reading()).toEqual(openaiResponses.readResponse(body));
    }
  });

  it('reads a stream cut short from its deltas and completed items', () => {
    expect(accumulate(openaiResponses, RESPONSE_STREAM.slice(0, 8)).reading()).toEqual({
      response: {
        text: 'Grüße ',
        reasoning: 'The user wants a greeting.',
        finish_reason: null,
        tool_calls: [],
      },
      usage: null,
      metadata: { response_id: 'resp_r1' },
    });
    expect(
      accumulate(openaiResponses, RESPONSE_TOOL_STREAM.slice(0, 6)).reading().response.tool_calls,
    ).toEqual([{ tool_call_id: 'call_r2', tool_name: 'lookup_order', input: { order_id: 'O-7' } }]);
  });

  it('takes the failure from an error event or a failed response', () => {
    const errorEvent = {
      event: 'error',
      data: { type: 'error', code: 'server_error', message: 'boom', param: null },
    };
    expect(accumulate(openaiResponses, [RESPONSE_STREAM[0]!, errorEvent]).failure()).toEqual({
      name: 'server_error',
      message: 'boom',
    });
    const failed = {
      event: 'response.failed',
      data: {
        type: 'response.failed',
        response: {
          ...RESPONSE_TEXT,
          status: 'failed',
          error: { code: 'rate_limit_exceeded', message: 'slow down' },
        },
      },
    };
    const accumulator = accumulate(openaiResponses, [failed]);
    expect(accumulator.failure()).toEqual({ name: 'rate_limit_exceeded', message: 'slow down' });
    expect(accumulator.reading().response.finish_reason).toBe('failed');
  });
});
