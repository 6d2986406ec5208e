// The middleware through the AI SDK itself (generateText, streamText, wrapLanguageModel) over a
// mock LanguageModelV3, recorded to a signed file and verified.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { beginLlmCall } from '../../hooks/spans/llm.js';
import { tool as recordTool } from '../../hooks/spans/tool.js';
import { runbackMiddleware } from './index.js';
import { opening, usage } from '../../../test/support/ai/mock-parts.js';
import { readAll, recordToFile } from '../../../test/support/ai/record-to-file.js';

const answer: LanguageModelV3GenerateResult = {
  content: [
    { type: 'reasoning', text: 'A greeting.' },
    { type: 'text', text: 'Hello' },
    { type: 'text', text: ', world' },
  ],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: usage(10, 4),
  providerMetadata: { mock: { cached: false } },
  request: { body: { sent: 'as the provider saw it' } },
  response: {
    id: 'resp-1',
    modelId: 'mock-model-2026-01',
    timestamp: new Date('2026-01-05T10:00:00.000Z'),
    headers: { 'set-cookie': 'session=abc' },
  },
  warnings: [],
};

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const wrap = (model: MockLanguageModelV3) =>
  wrapLanguageModel({ model, middleware: runbackMiddleware() });

function streamOf(
  parts: readonly LanguageModelV3StreamPart[],
): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** One text part, streamed as these deltas. */
const textPart = (id: string, ...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: 'text-start', id },
  ...deltas.map((delta) => ({ type: 'text-delta' as const, id, delta })),
  { type: 'text-end', id },
];

const streamed: LanguageModelV3StreamPart[] = [
  ...opening,
  { type: 'reasoning-start', id: 'r0' },
  { type: 'reasoning-delta', id: 'r0', delta: 'Look the order up, ' },
  { type: 'reasoning-delta', id: 'r0', delta: 'then answer.' },
  { type: 'reasoning-end', id: 'r0' },
  ...textPart('t0', 'Checking ', 'O-7.'),
  { type: 'tool-input-start', id: 'call-1', toolName: 'get_order' },
  { type: 'tool-input-delta', id: 'call-1', delta: '{"id":"O-7"}' },
  { type: 'tool-input-end', id: 'call-1' },
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'get_order', input: '{"id":"O-7"}' },
  {
    type: 'finish',
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(20, 9),
  },
];

describe('runbackMiddleware with generateText', () => {
  it('records one llm event per call, in the format shape, and the record verifies', async () => {
    const model = new MockLanguageModelV3({
      provider: 'mock',
      modelId: 'mock-model',
      doGenerate: answer,
    });
    const run = await recordToFile(async () => {
      const result = await generateText({
        model: wrap(model),
        system: 'Be brief.',
        prompt: 'Hi',
        temperature: 0.2,
        maxOutputTokens: 50,
        seed: 7,
        stopSequences: ['END'],
        headers: { 'x-api-key': 'secret-header-value' },
        abortSignal: new AbortController().signal,
        providerOptions: { mock: { mode: 'fast' } },
      });
      return result.text;
    });

    expect(run.output).toBe('Hello, world');
    expect(run.verdict.verdict).toBe('valid');
    expect(run.llm).toHaveLength(1);
    const event = run.llm[0];
    expect(event).toMatchObject({
      parent_span_id: 'run',
      model: { provider: 'mock', model_id: 'mock-model' },
      request: {
        system: 'Be brief.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        tools: [],
        params: {
          temperature: 0.2,
          maxOutputTokens: 50,
          seed: 7,
          stopSequences: ['END'],
          providerOptions: { mock: { mode: 'fast' } },
        },
      },
      response: {
        text: 'Hello, world',
        reasoning: 'A greeting.',
        finish_reason: 'stop',
        tool_calls: [],
      },
      usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14 },
      error: null,
      metadata: {
        api: 'ai-sdk.language-model-v3',
        response_id: 'resp-1',
        model_id: 'mock-model-2026-01',
      },
    });
    // Nothing that is not part of the question: no signal, no headers (the AI SDK adds its own
    // user-agent there, which would change the replay key with every AI SDK release).
    expect(Object.keys(event?.request.params ?? {}).sort()).toEqual([
      'maxOutputTokens',
      'providerOptions',
      'seed',
      'stopSequences',
      'temperature',
    ]);
    expect(run.text).not.toContain('secret-header-value');
    expect(run.text).not.toContain('session=abc');
    expect(event?.response?.raw).toEqual({
      content: answer.content,
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 10, noCache: 10 }, outputTokens: { total: 4, text: 4 } },
      providerMetadata: { mock: { cached: false } },
      response: {
        id: 'resp-1',
        modelId: 'mock-model-2026-01',
        timestamp: '2026-01-05T10:00:00.000Z',
      },
      warnings: [],
    });
  });

  it('records a tool round: the call asking for the tool, the tool, and the call reading its result', async () => {
    const model = new MockLanguageModelV3({
      provider: 'mock',
      modelId: 'mock-model',
      doGenerate: [
        {
          ...answer,
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call-1',
              toolName: 'get_order',
              input: '{"id":"O-7"}',
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        },
        { ...answer, content: [{ type: 'text', text: 'Refund approved.' }] },
      ],
    });
    const tools = {
      get_order: tool({
        description: 'Look an order up',
        inputSchema: z.object({ id: z.string() }),
        execute: (input, { toolCallId }) =>
          recordTool('get_order', input, async () => ({ id: input.id, total: 12.5 }), {
            toolCallId,
          }),
      }),
    };
    const run = await recordToFile(async () => {
      const result = await generateText({
        model: wrap(model),
        prompt: 'Refund order O-7?',
        tools,
        stopWhen: stepCountIs(2),
      });
      return result.text;
    });

    expect(run.output).toBe('Refund approved.');
    expect(run.verdict.verdict).toBe('valid');
    expect(run.events.map((event) => event.type)).toEqual(['run', 'llm', 'tool', 'llm', 'run']);
    const [first, second] = run.llm;
    expect(first?.request.tools).toEqual([
      {
        type: 'function',
        name: 'get_order',
        description: 'Look an order up',
        inputSchema: expect.objectContaining({
          type: 'object',
          properties: { id: { type: 'string' } },
        }) as unknown,
      },
    ]);
    expect(first?.response).toMatchObject({
      text: null,
      finish_reason: 'tool-calls',
      tool_calls: [{ tool_call_id: 'call-1', tool_name: 'get_order', input: { id: 'O-7' } }],
    });
    expect(run.tools[0]).toMatchObject({
      tool_name: 'get_order',
      tool_call_id: 'call-1',
      input: { id: 'O-7' },
      output: { id: 'O-7', total: 12.5 },
    });
    // The second call is asked with the tool's answer in its messages.
    expect(second?.request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Refund order O-7?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'get_order', input: { id: 'O-7' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-1',
            toolName: 'get_order',
            output: { type: 'json', value: { id: 'O-7', total: 12.5 } },
          },
        ],
      },
    ]);
    expect(second?.response?.text).toBe('Refund approved.');
  });

  it('records a failed call with its error and rethrows the same error', async () => {
    const failure = new Error('model overloaded');
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw failure;
      },
    });
    const run = await recordToFile(async () => {
      const wrapped = wrap(model);
      return wrapped
        .doGenerate({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })
        .then(
          () => 'resolved',
          (err: unknown) => err,
        );
    });
    expect(run.output).toBe(failure);
    expect(run.verdict.verdict).toBe('valid');
    expect(run.llm[0]).toMatchObject({
      response: null,
      usage: null,
      error: { name: 'Error', message: 'model overloaded' },
      metadata: { api: 'ai-sdk.language-model-v3' },
    });
  });

  it('passes calls outside a run straight through and records nothing for them', async () => {
    const model = new MockLanguageModelV3({ doGenerate: answer });
    const wrapped = wrap(model);
    const outside = await generateText({ model: wrapped, prompt: 'outside' });
    const run = await recordToFile(
      async () => (await generateText({ model: wrapped, prompt: 'inside' })).text,
    );
    expect(outside.text).toBe('Hello, world');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(run.llm).toHaveLength(1);
    expect(run.llm[0]?.request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'inside' }] },
    ]);
  });

  it('records a call once when it is already being recorded (stacked middleware, an outer llm span)', async () => {
    const model = new MockLanguageModelV3({ doGenerate: answer });
    const twice = wrapLanguageModel({
      model,
      middleware: [runbackMiddleware(), runbackMiddleware()],
    });
    const run = await recordToFile(async () => {
      await generateText({ model: twice, prompt: 'Hi' });
      const outer = beginLlmCall({
        provider: 'custom',
        modelId: 'outer',
        request: { messages: [] },
      });
      await outer?.run(() => generateText({ model: wrap(model), prompt: 'nested' }));
      outer?.end({ response: { text: 'done', finish_reason: 'stop', tool_calls: [] } });
    });
    expect(run.llm.map((event) => event.model.model_id)).toEqual(['mock-model-id', 'outer']);
    expect(run.verdict.verdict).toBe('valid');
  });

  it('stores the provider override and the key projection, and checks them up front', async () => {
    const model = new MockLanguageModelV3({ doGenerate: answer });
    const middleware = runbackMiddleware({
      provider: 'acme',
      keyProjection: { drop: ['params.seed'] },
    });
    const run = await recordToFile(async () => {
      await generateText({
        model: wrapLanguageModel({ model, middleware }),
        prompt: 'Hi',
        seed: 1,
      });
    });
    expect(run.llm[0]).toMatchObject({
      model: { provider: 'acme' },
      key_projection: { drop: ['params.seed'] },
      request: { params: { seed: 1 } },
    });
    expect(run.verdict.verdict).toBe('valid');

    expect(() => runbackMiddleware({ provider: '' })).toThrow(
      expect.objectContaining({
        code: 'ARG_INVALID',
        message: 'options.provider: expected a non-empty string, got ""',
      }),
    );
    expect(() => runbackMiddleware({ keyProjection: { drop: 'params.seed' } as never })).toThrow(
      expect.objectContaining({
        code: 'ARG_INVALID',
        message:
          'options.keyProjection: expected { keep?: string[], drop?: string[] }, got an object',
      }),
    );
    expect(() => runbackMiddleware(null as never)).toThrow('options: expected an object, got null');
  });
});

describe('runbackMiddleware with streams', () => {
  it('hands every part on unchanged and in order, and records them as chunks', async () => {
    const model = new MockLanguageModelV3({
      provider: 'mock',
      modelId: 'mock-model',
      doStream: async () => ({ stream: streamOf(streamed) }),
    });
    const params: LanguageModelV3CallOptions = {
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Refund O-7?' }] }],
    };
    const run = await recordToFile(async () => {
      const { stream } = await wrap(model).doStream(params);
      return readAll(stream);
    });
    // The very same part objects, in the same order.
    expect(run.output).toHaveLength(streamed.length);
    run.output.forEach((part, index) => expect(part).toBe(streamed[index]));

    expect(run.verdict.verdict).toBe('valid');
    expect(run.llm[0]).toMatchObject({
      request: { params: { stream: true } },
      response: {
        text: 'Checking O-7.',
        reasoning: 'Look the order up, then answer.',
        finish_reason: 'tool-calls',
        tool_calls: [{ tool_call_id: 'call-1', tool_name: 'get_order', input: { id: 'O-7' } }],
        chunks: asJson(streamed),
      },
      usage: { input_tokens: 20, output_tokens: 9, total_tokens: 29 },
      metadata: { response_id: 'resp-s', model_id: 'mock-model-2026-01' },
      error: null,
    });
    expect(run.llm[0]?.response?.chunks?.[1]).toMatchObject({
      timestamp: '2026-01-05T10:00:00.000Z',
    });
  });

  it('gives streamText the same stream with and without the middleware', async () => {
    const text: LanguageModelV3StreamPart[] = [
      ...opening,
      ...textPart('t0', 'Hel', 'lo'),
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(3, 2) },
    ];
    const model = new MockLanguageModelV3({ doStream: async () => ({ stream: streamOf(text) }) });
    const plain = await readAll(streamText({ model, prompt: 'Hi' }).fullStream);
    const run = await recordToFile(async () => {
      const result = streamText({ model: wrap(model), prompt: 'Hi' });
      const [full, textOnly] = await Promise.all([
        readAll(result.fullStream),
        readAll(result.textStream),
      ]);
      return { full, textOnly };
    });
    expect(run.output.full).toEqual(plain);
    expect(run.output.textOnly).toEqual(['Hel', 'lo']);
    expect(run.llm[0]?.response).toMatchObject({ text: 'Hello', finish_reason: 'stop' });
    expect(run.verdict.verdict).toBe('valid');
  });

  it('records a stream that carried an error part as failed, keeping what arrived', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't0' },
      { type: 'text-delta', id: 't0', delta: 'Partial' },
      { type: 'error', error: new Error('connection reset') },
      { type: 'finish', finishReason: { unified: 'error', raw: undefined }, usage: usage(3, 1) },
    ];
    const model = new MockLanguageModelV3({ doStream: async () => ({ stream: streamOf(parts) }) });
    const run = await recordToFile(async () => {
      const result = streamText({ model: wrap(model), prompt: 'Hi', onError: () => {} });
      return (await readAll(result.fullStream)).map((part) => part.type);
    });
    expect(run.output).toContain('error');
    expect(run.verdict.verdict).toBe('valid');
    expect(run.llm[0]).toMatchObject({
      response: null,
      error: { name: 'Error', message: 'connection reset' },
      metadata: {
        partial: {
          response: {
            text: 'Partial',
            finish_reason: 'error',
            chunks: [
              { type: 'stream-start', warnings: [] },
              { type: 'text-start', id: 't0' },
              { type: 'text-delta', id: 't0', delta: 'Partial' },
              { type: 'error', error: { name: 'Error', message: 'connection reset' } },
              { type: 'finish', finishReason: { unified: 'error' }, usage: asJson(usage(3, 1)) },
            ],
          },
          usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4 },
        },
      },
    });
  });

  it('records a stream its reader cancelled, and cancels the model stream', async () => {
    let cancelledWith: unknown = 'not cancelled';
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-start', id: 't0' });
            controller.enqueue({ type: 'text-delta', id: 't0', delta: 'Once upon' });
          },
          cancel(reason) {
            cancelledWith = reason;
          },
        }),
      }),
    });
    const prompt: LanguageModelV3CallOptions = {
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Story' }] }],
    };
    const run = await recordToFile(async () => {
      const reader = (await wrap(model).doStream(prompt)).stream.getReader();
      await reader.read();
      await reader.read();
      await reader.cancel();
      const second = (await wrap(model).doStream(prompt)).stream.getReader();
      await second.read();
      await second.cancel('user left');
    });
    expect(cancelledWith).toBe('user left');
    expect(run.llm.map((event) => event.error)).toEqual([
      {
        name: 'PROVIDER_STREAM_CANCELLED',
        message:
          'expected the stream to be read to its end, got cancelled by the consumer after 2 parts',
      },
      { name: 'NonError', message: 'user left' },
    ]);
    expect(run.llm[0]?.metadata).toMatchObject({ partial: { response: { text: 'Once upon' } } });
    expect(run.llm[1]?.metadata).toMatchObject({ partial: { response: { text: '' } } });
  });

  it('records a model stream that errors, and the reader gets the error', async () => {
    const failure = new Error('socket hang up');
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
          },
          pull(controller) {
            controller.error(failure);
          },
        }),
      }),
    });
    const run = await recordToFile(async () => {
      const { stream } = await wrap(model).doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      });
      return readAll(stream).then(
        () => 'ended',
        (err: unknown) => err,
      );
    });
    expect(run.output).toBe(failure);
    expect(run.llm[0]).toMatchObject({
      error: { name: 'Error', message: 'socket hang up' },
      metadata: { partial: { response: { chunks: [{ type: 'stream-start', warnings: [] }] } } },
    });
  });

  it('records a doStream that throws before any part, and rethrows', async () => {
    const failure = new Error('401 unauthorized');
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw failure;
      },
    });
    const run = await recordToFile(async () =>
      wrap(model)
        .doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] })
        .then(
          () => 'resolved',
          (err: unknown) => err,
        ),
    );
    expect(run.output).toBe(failure);
    expect(run.llm[0]).toMatchObject({ response: null, error: { message: '401 unauthorized' } });
  });
});

describe('runbackMiddleware and environment capture', () => {
  it('does not capture what the model call reads, in the call or while its stream is read', async () => {
    const inside: number[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        inside.push(Math.random());
        return answer;
      },
      doStream: async () => {
        inside.push(Math.random());
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            pull(controller) {
              // A provider's stream transform runs as the stream is pulled.
              inside.push(Math.random());
              if (inside.length > 4) {
                controller.enqueue({
                  type: 'finish',
                  finishReason: { unified: 'stop', raw: 'stop' },
                  usage: usage(1, 1),
                });
                controller.close();
              } else {
                controller.enqueue({ type: 'text-delta', id: 't0', delta: 'x' });
              }
            },
          }),
        };
      },
    });
    let direct = 0;
    const run = await recordToFile(
      async () => {
        direct = Math.random();
        await generateText({ model: wrap(model), prompt: 'Hi' });
        await readAll(streamText({ model: wrap(model), prompt: 'Hi' }).fullStream);
      },
      { captureEnv: { random: true, now: false, date: false, uuid: false, fetch: false } },
    );
    const captured = run.env
      .filter((event) => event.kind === 'random')
      .map((event) => event.output);
    expect(captured).toContain(direct);
    expect(inside.length).toBeGreaterThan(4);
    for (const value of inside) expect(captured).not.toContain(value);
    expect(run.verdict.verdict).toBe('valid');
  });
});
