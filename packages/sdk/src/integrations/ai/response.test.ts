import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { generateOutcome } from './generate.js';
import { responseOf, toolCallOf, usageOf } from './response.js';

const undefinedCounts = { noCache: undefined, cacheRead: undefined, cacheWrite: undefined };

describe('usageOf', () => {
  it('reads the nested AI SDK 6 counts and sums the total', () => {
    expect(
      usageOf({
        inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: undefined },
        outputTokens: { total: 30, text: 10, reasoning: 20 },
        raw: { prompt_tokens: 120 },
      }),
    ).toEqual({ input_tokens: 120, output_tokens: 30, total_tokens: 150 });
  });

  it('reads the flat counts of earlier versions, their stated total first', () => {
    expect(usageOf({ inputTokens: 3, outputTokens: 4, totalTokens: 9 })).toEqual({
      input_tokens: 3,
      output_tokens: 4,
      total_tokens: 9,
    });
  });

  it('gives null for counts the provider did not send, and no usage for none at all', () => {
    expect(
      usageOf({
        inputTokens: { total: 5, ...undefinedCounts },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      }),
    ).toEqual({ input_tokens: 5, output_tokens: null, total_tokens: null });
    expect(usageOf(undefined)).toBeNull();
  });
});

describe('responseOf and toolCallOf', () => {
  it('joins parts, reads both finish reason shapes, and keeps null for what was not sent', () => {
    const parts = { texts: ['a', 'b'], reasonings: [], toolCalls: [] };
    expect(
      responseOf({ ...parts, finishReason: { unified: 'length', raw: 'max_tokens' } }),
    ).toEqual({
      text: 'ab',
      reasoning: null,
      finish_reason: 'length',
      tool_calls: [],
    });
    expect(responseOf({ ...parts, finishReason: 'stop' }).finish_reason).toBe('stop');
    expect(
      responseOf({ texts: [], reasonings: [], toolCalls: [], finishReason: undefined }),
    ).toEqual({
      text: null,
      reasoning: null,
      finish_reason: null,
      tool_calls: [],
    });
  });

  it('parses the JSON input of a tool call, and keeps input that is not JSON as it came', () => {
    expect(
      toolCallOf({
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'get_order',
        input: '{"id":"O-7"}',
      }),
    ).toEqual({
      tool_call_id: 'c1',
      tool_name: 'get_order',
      input: { id: 'O-7' },
    });
    expect(
      toolCallOf({ type: 'tool-call', toolCallId: 'c2', toolName: 'get_order', input: '{"id":' })
        .input,
    ).toBe('{"id":');
  });
});

describe('generateOutcome', () => {
  it('maps the content and keeps the result as JSON in raw, without the debugging members', () => {
    const result: LanguageModelV3GenerateResult = {
      content: [
        { type: 'reasoning', text: 'Order is recent.' },
        { type: 'text', text: 'Approved' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'refund', input: '{"amount":12.5}' },
        { type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: {
        inputTokens: { total: 10, ...undefinedCounts },
        outputTokens: { total: 4, text: 4, reasoning: undefined },
      },
      providerMetadata: { openai: { acceptedPredictionTokens: 0 } },
      request: { body: { model: 'gpt-4o-mini', messages: [] } },
      response: {
        id: 'resp-1',
        modelId: 'gpt-4o-mini-2024-07-18',
        timestamp: new Date('2026-01-05T10:00:00.000Z'),
        headers: { 'set-cookie': 'session=abc', 'openai-organization': 'org-x' },
        body: { id: 'resp-1' },
      },
      warnings: [{ type: 'unsupported', feature: 'topK' }],
    };
    expect(generateOutcome(result)).toEqual({
      response: {
        text: 'Approved',
        reasoning: 'Order is recent.',
        finish_reason: 'tool-calls',
        tool_calls: [{ tool_call_id: 'c1', tool_name: 'refund', input: { amount: 12.5 } }],
        raw: {
          content: [
            { type: 'reasoning', text: 'Order is recent.' },
            { type: 'text', text: 'Approved' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'refund', input: '{"amount":12.5}' },
            { type: 'file', mediaType: 'image/png', data: 'AQID' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: { inputTokens: { total: 10 }, outputTokens: { total: 4, text: 4 } },
          providerMetadata: { openai: { acceptedPredictionTokens: 0 } },
          response: {
            id: 'resp-1',
            modelId: 'gpt-4o-mini-2024-07-18',
            timestamp: '2026-01-05T10:00:00.000Z',
          },
          warnings: [{ type: 'unsupported', feature: 'topK' }],
        },
      },
      usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
      metadata: { response_id: 'resp-1', model_id: 'gpt-4o-mini-2024-07-18' },
    });
  });

  it('records a result without response metadata', () => {
    const outcome = generateOutcome({
      content: [],
      finishReason: { unified: 'other', raw: undefined },
      usage: {
        inputTokens: { total: undefined, ...undefinedCounts },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      },
      warnings: [],
    });
    expect(outcome.metadata).toEqual({});
    expect(outcome.response.raw).not.toHaveProperty('response');
    expect(outcome.response.text).toBeNull();
  });
});
