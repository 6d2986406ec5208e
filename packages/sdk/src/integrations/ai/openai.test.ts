// The middleware over the real @ai-sdk/openai chat model, against a local server that speaks
// OpenAI chat completions (JSON and server-sent events).
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { generateEd25519KeyPair } from '@runback/sign';
import { APICallError, generateText, streamText, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { startRun } from '../../recorder/recorder.js';
import { runbackMiddleware } from './index.js';
import { startMockOpenAI, type MockOpenAI } from '../../../test/mock-llm/openai-server.js';
import {
  API_KEY,
  completion,
  MODEL,
  serverError,
  textEvents,
  toolEvents,
} from '../../../test/support/ai/openai-fixtures.js';
import { readAll, readRun, recordToFile } from '../../../test/support/ai/record-to-file.js';

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const userPrompt: LanguageModelV3CallOptions = {
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'Refund order O-7?' }] }],
};

let server: MockOpenAI;
let chat: LanguageModelV3;
let recorded: LanguageModelV3;

beforeAll(async () => {
  server = await startMockOpenAI();
  chat = createOpenAI({ baseURL: server.baseURL, apiKey: API_KEY }).chat('gpt-4o-mini');
  recorded = wrapLanguageModel({ model: chat, middleware: runbackMiddleware() });
});
afterAll(() => server.close());

describe('runbackMiddleware over @ai-sdk/openai', () => {
  it('records a chat completion, verifies, and never writes the API key', async () => {
    server.reply({ json: completion });
    const run = await recordToFile(
      async () => {
        const result = await generateText({
          model: recorded,
          system: 'You approve refunds.',
          prompt: 'Refund order O-7?',
          temperature: 0,
          maxOutputTokens: 100,
        });
        return result.text;
      },
      { redact: false },
    );
    const request = server.requests.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      authorization: `Bearer ${API_KEY}`,
    });
    expect(request?.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0, max_tokens: 100 });

    expect(run.output).toBe('Refund approved.');
    expect(run.verdict).toMatchObject({ verdict: 'valid', errors: [] });
    expect(run.text).not.toContain(API_KEY);
    expect(run.llm).toHaveLength(1);
    expect(run.llm[0]).toMatchObject({
      model: { provider: 'openai.chat', model_id: 'gpt-4o-mini' },
      request: {
        system: 'You approve refunds.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Refund order O-7?' }] }],
        tools: [],
        params: { temperature: 0, maxOutputTokens: 100 },
      },
      response: {
        text: 'Refund approved.',
        reasoning: null,
        finish_reason: 'stop',
        tool_calls: [],
        raw: {
          content: [{ type: 'text', text: 'Refund approved.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          response: { id: 'chatcmpl-1', modelId: MODEL, timestamp: '2026-01-05T10:00:00.000Z' },
          warnings: [],
        },
      },
      usage: { input_tokens: 12, output_tokens: 5, total_tokens: 17 },
      metadata: { response_id: 'chatcmpl-1', model_id: MODEL },
      error: null,
    });
  });

  it('hands the caller the same stream as without the middleware, and records every part', async () => {
    server.reply({ sse: textEvents }, { sse: textEvents });
    const plain = await readAll((await chat.doStream(userPrompt)).stream);
    const run = await recordToFile(
      async () => readAll((await recorded.doStream(userPrompt)).stream),
      {
        redact: false,
      },
    );
    // The opening chunk's empty content is a text delta of its own.
    expect(plain.map((part) => part.type)).toEqual([
      'stream-start',
      'response-metadata',
      'text-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-end',
      'finish',
    ]);
    expect(run.output).toEqual(plain);
    expect(run.verdict.verdict).toBe('valid');
    expect(run.text).not.toContain(API_KEY);
    expect(run.llm[0]).toMatchObject({
      request: { params: { stream: true } },
      response: {
        text: 'Refund approved.',
        finish_reason: 'stop',
        tool_calls: [],
        chunks: asJson(plain),
      },
      usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 },
      metadata: { response_id: 'chatcmpl-2', model_id: MODEL },
      error: null,
    });
  });

  it('gives streamText the same parts with and without the middleware', async () => {
    server.reply({ sse: textEvents }, { sse: textEvents });
    const plain = await readAll(
      streamText({ model: chat, prompt: 'Refund order O-7?' }).fullStream,
    );
    const run = await recordToFile(async () =>
      readAll(streamText({ model: recorded, prompt: 'Refund order O-7?' }).fullStream),
    );
    expect(run.output).toEqual(plain);
    expect(run.llm[0]?.response?.text).toBe('Refund approved.');
  });

  it('passes each part on as it arrives, before the server has sent the rest', async () => {
    let resume = () => {};
    server.reply({
      sse: textEvents,
      pauseAfter: 2,
      resume: new Promise<void>((r) => (resume = r)),
    });
    const run = await recordToFile(async () => {
      const reader = (await recorded.doStream(userPrompt)).stream.getReader();
      // The server holds back everything after 'Refund ' until resumed: a middleware that
      // buffered would never hand that text over, and this test would time out.
      const early: string[] = [];
      for (;;) {
        const { value } = await reader.read();
        early.push(value?.type === 'text-delta' ? value.delta : (value?.type ?? 'end'));
        if (value === undefined || early.includes('Refund ')) break;
      }
      resume();
      while (!(await reader.read()).done);
      return early;
    });
    expect(run.output).toEqual(['stream-start', 'response-metadata', 'text-start', '', 'Refund ']);
    expect(run.llm[0]?.response?.text).toBe('Refund approved.');
    expect(run.llm[0]?.response?.chunks).toHaveLength(8);
  }, 10_000);

  it('records a streamed tool call', async () => {
    server.reply({ sse: toolEvents });
    const run = await recordToFile(async () =>
      readAll((await recorded.doStream(userPrompt)).stream),
    );
    expect(run.llm[0]?.response).toMatchObject({
      text: null,
      finish_reason: 'tool-calls',
      tool_calls: [{ tool_call_id: 'call_1', tool_name: 'get_order', input: { id: 'O-7' } }],
    });
    expect(run.verdict.verdict).toBe('valid');
  });

  it('does not record calls made outside the run, even while the run is open', async () => {
    server.reply({ json: completion }, { json: { ...completion, id: 'chatcmpl-inside' } });
    const keys = generateEd25519KeyPair();
    const out = join(tempDir(), 'run.json');
    const run = startRun({
      name: 'outside',
      out,
      signer: { alg: 'Ed25519', privateKey: keys.privateKey },
    });
    await generateText({ model: recorded, prompt: 'not in the run' });
    await run.run(() => generateText({ model: recorded, prompt: 'in the run' }));
    await run.end();
    const written = readRun(out, undefined, keys.publicKey);
    expect(written.llm).toHaveLength(1);
    expect(written.llm[0]?.metadata).toMatchObject({ response_id: 'chatcmpl-inside' });
    expect(written.verdict.verdict).toBe('valid');
  });

  it('records an HTTP 500 as a failed call and rethrows the provider error', async () => {
    server.reply({ status: 500, json: serverError }, { status: 500, json: serverError });
    const run = await recordToFile(async () => {
      const generated = await generateText({ model: recorded, prompt: 'Hi', maxRetries: 0 }).catch(
        (err: unknown) => err,
      );
      const errors: unknown[] = [];
      await readAll(
        streamText({
          model: recorded,
          prompt: 'Hi',
          maxRetries: 0,
          onError: ({ error }) => void errors.push(error),
        }).fullStream,
      );
      return { generated, streamed: errors[0] };
    });
    for (const error of [run.output.generated, run.output.streamed]) {
      expect(APICallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ statusCode: 500 });
    }
    expect(run.llm).toHaveLength(2);
    for (const event of run.llm) {
      expect(event).toMatchObject({
        response: null,
        usage: null,
        error: {
          name: 'AI_APICallError',
          message: 'The server had an error while processing your request.',
        },
      });
    }
    expect(run.llm[1]?.request.params).toEqual({ includeRawChunks: false, stream: true });
    expect(run.verdict.verdict).toBe('valid');
  });

  it('records the model call once under environment capture: no fetch event, no second llm event', async () => {
    server.reply({ json: { object: 'list', data: [] } }, { json: completion }, { sse: textEvents });
    const run = await recordToFile(
      async () => {
        await fetch(`${server.baseURL}/models`);
        const generated = await generateText({ model: recorded, prompt: 'Hi' });
        const streamed = streamText({ model: recorded, prompt: 'Hi' });
        return [generated.text, await streamed.text];
      },
      { captureEnv: true },
    );
    expect(run.output).toEqual(['Refund approved.', 'Refund approved.']);
    // The agent's own fetch is captured. The model call's fetch runs inside the llm span, so
    // neither fetch capture nor provider-aware fetch capture records it again.
    expect(
      run.env
        .filter((event) => event.kind === 'fetch')
        .map((event) => (event as { input?: unknown }).input),
    ).toEqual([{ method: 'GET', url: `${server.baseURL}/models` }]);
    expect(run.llm.map((event) => event.metadata?.['api'])).toEqual([
      'ai-sdk.language-model-v3',
      'ai-sdk.language-model-v3',
    ]);
    expect(run.verdict.verdict).toBe('valid');
  });
});
