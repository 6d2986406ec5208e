import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { requestOf } from './request.js';

const user = {
  role: 'user' as const,
  content: [{ type: 'text' as const, text: 'Refund order O-7?' }],
};

describe('requestOf', () => {
  it('splits the leading system message off, keeps the JSON call options and drops signal and headers', () => {
    const getOrder = {
      type: 'function' as const,
      name: 'get_order',
      description: 'Look an order up',
      inputSchema: { type: 'object' as const, properties: { id: { type: 'string' as const } } },
    };
    const params = {
      maxOutputTokens: 64,
      temperature: 0,
      topP: 0.9,
      stopSequences: ['END'],
      seed: 7,
      toolChoice: { type: 'auto' as const },
      responseFormat: { type: 'json' as const, schema: { type: 'object' as const } },
      providerOptions: { openai: { user: 'u-1' } },
    };
    const options: LanguageModelV3CallOptions = {
      prompt: [{ role: 'system', content: 'You approve refunds.' }, user],
      ...params,
      abortSignal: new AbortController().signal,
      headers: { authorization: 'Bearer secret-value', 'x-trace': undefined },
      tools: [getOrder],
    };
    const request = requestOf(options, false);
    expect(request).toEqual({
      system: 'You approve refunds.',
      messages: [user],
      tools: [getOrder],
      params,
    });
    // Copies: the agent may change its objects after the call.
    expect(request.tools?.[0]).not.toBe(getOrder);
  });

  it('marks a stream call, so it never shares a replay key with a generate call', () => {
    const options: LanguageModelV3CallOptions = { prompt: [user], temperature: 1 };
    expect(requestOf(options, true)).toEqual({
      system: null,
      messages: [user],
      tools: [],
      params: { temperature: 1, stream: true },
    });
    expect(requestOf(options, false).params).toEqual({ temperature: 1 });
  });

  it('keeps several system messages in order, whole when they carry provider options', () => {
    const plain: LanguageModelV3CallOptions = {
      prompt: [{ role: 'system', content: 'First.' }, { role: 'system', content: 'Second.' }, user],
    };
    expect(requestOf(plain, false).system).toEqual(['First.', 'Second.']);

    const cached: LanguageModelV3CallOptions = {
      prompt: [
        {
          role: 'system',
          content: 'Long policy.',
          providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        },
        user,
      ],
    };
    expect(requestOf(cached, false).system).toEqual([
      {
        role: 'system',
        content: 'Long policy.',
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
    ]);
  });

  it('leaves a system message that follows the conversation in its place', () => {
    const later = { role: 'system' as const, content: 'Answer in French from now on.' };
    const request = requestOf({ prompt: [user, later] }, false);
    expect(request.system).toBeNull();
    expect(request.messages).toEqual([user, later]);
  });

  it('stores file bytes as base64 and URLs as text', () => {
    const request = requestOf(
      {
        prompt: [
          {
            role: 'user',
            content: [
              { type: 'file', mediaType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) },
              {
                type: 'file',
                mediaType: 'image/png',
                data: new URL('https://example.com/receipt.png'),
              },
            ],
          },
        ],
      },
      false,
    );
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'file', mediaType: 'image/png', data: 'iVBORw==' },
          { type: 'file', mediaType: 'image/png', data: 'https://example.com/receipt.png' },
        ],
      },
    ]);
  });
});
