// Replaying through runbackMiddleware over a mock LanguageModelV3: how a stream ended (cleanly,
// with an error part, with an error, cancelled by its reader, or never started), and what a
// generate result holds, come back as they were recorded. The replay's model throws if called.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { generateText, streamText } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { opening, usage } from '../../../test/support/ai/mock-parts.js';
import {
  recordThenReplay,
  type ModelAgent,
  type ReplayRunOptions,
} from '../../../test/support/ai/record-then-replay.js';
import { readAll } from '../../../test/support/ai/record-to-file.js';

const params: LanguageModelV3CallOptions = {
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'Refund O-7?' }] }],
};

/** A model that fails the test if the replay reaches it. */
const unreachable = (): MockLanguageModelV3 =>
  new MockLanguageModelV3({
    doGenerate: () => Promise.reject(new Error('the replay called doGenerate')),
    doStream: () => Promise.reject(new Error('the replay called doStream')),
  });

/** A model stream that sends `parts` and then ends as `end` says. */
function streamingModel(
  parts: readonly LanguageModelV3StreamPart[],
  end: (controller: ReadableStreamDefaultController<LanguageModelV3StreamPart>) => void = (c) =>
    c.close(),
): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
        },
        pull: end,
      }),
    }),
  });
}

/** Records `agent` over `live`, replays it over a model that must not be called, and checks so. */
async function roundTrip<T>(
  live: LanguageModelV3,
  agent: ModelAgent<T>,
  options?: ReplayRunOptions<T>,
) {
  const idle = unreachable();
  const result = await recordThenReplay(live, idle, agent, options);
  expect(idle.doGenerateCalls).toHaveLength(0);
  expect(idle.doStreamCalls).toHaveLength(0);
  expect(result.recorded.verdict.verdict).toBe('valid');
  return result;
}

/** Reads a stream to its end; what it gave, and the error it ended with, if any. */
async function drain(
  model: LanguageModelV3,
): Promise<{ parts: LanguageModelV3StreamPart[]; error?: unknown }> {
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = (await model.doStream(params)).stream.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      parts.push(read.value);
    }
    return { parts };
  } catch (error) {
    return { parts, error };
  }
}

/** A stream's opening, then the first text it sent. */
const partial: LanguageModelV3StreamPart[] = [
  ...opening,
  { type: 'text-start', id: 't0' },
  { type: 'text-delta', id: 't0', delta: 'Partial' },
];

describe('replaying doStream', () => {
  it('gives the same parts, Dates included, and ends the stream when the recorded one ended', async () => {
    const seen: LanguageModelV3StreamPart[][] = [];
    const parts: LanguageModelV3StreamPart[] = [
      ...partial,
      { type: 'text-end', id: 't0' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(3, 2) },
    ];
    const { replayed } = await roundTrip(streamingModel(parts), async (model) => {
      const { parts: got } = await drain(model);
      seen.push(got);
      return got.length;
    });
    expect(replayed.report.status).toBe('reproduced');
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[1]?.[1]).toMatchObject({ timestamp: new Date('2026-01-05T10:00:00.000Z') });
  });

  it('replays an error part as an Error part, then ends the stream as the recorded one did', async () => {
    const seen: { parts: LanguageModelV3StreamPart[]; error?: unknown }[] = [];
    const parts: LanguageModelV3StreamPart[] = [
      ...partial,
      { type: 'error', error: new Error('connection reset') },
      { type: 'error', error: { code: 'overloaded', retry: false } },
      { type: 'finish', finishReason: { unified: 'error', raw: undefined }, usage: usage(3, 2) },
    ];
    const { recorded, replayed } = await roundTrip(streamingModel(parts), async (model) => {
      const got = await drain(model);
      seen.push(got);
      return got.parts.map((part) => part.type);
    });
    expect(recorded.llm[0]?.error).toMatchObject({ message: 'connection reset' });
    expect(replayed.report.status).toBe('reproduced');
    const [was, now] = seen;
    expect(now?.error).toBeUndefined();
    expect(now?.parts).toEqual(was?.parts);
    const errors = now?.parts.filter((part) => part.type === 'error').map((part) => part.error);
    expect(errors?.[0]).toBeInstanceOf(Error);
    expect(errors?.[0]).toMatchObject({ name: 'Error', message: 'connection reset' });
    // Not an Error when recorded, so not one now.
    expect(errors?.[1]).toEqual({ code: 'overloaded', retry: false });
  });

  it('errors the stream with the recorded error after the parts that arrived before it', async () => {
    const seen: { parts: LanguageModelV3StreamPart[]; error?: unknown }[] = [];
    const live = streamingModel(partial, (controller) =>
      controller.error(new TypeError('socket hang up')),
    );
    const { replayed } = await roundTrip(live, async (model) => {
      const got = await drain(model);
      seen.push(got);
      return String(got.error);
    });
    expect(replayed.report.status).toBe('reproduced');
    const [was, now] = seen;
    expect(now?.parts).toEqual(was?.parts);
    expect(now?.error).toBeInstanceOf(TypeError);
    expect(now?.error).toEqual(was?.error);
    expect(now?.error).toMatchObject({ name: 'TypeError', message: 'socket hang up' });
    expect((now?.error as Error).stack).toBe((was?.error as Error).stack);
  });

  it('lets a reader cancel where it cancelled when recorded, without erroring under it', async () => {
    const cancels: unknown[] = [];
    const live = streamingModel(partial, () => {});
    const { recorded, replayed } = await roundTrip(live, async (model) => {
      const reader = (await model.doStream(params)).stream.getReader();
      const read = [(await reader.read()).value?.type, (await reader.read()).value?.type];
      cancels.push(await reader.cancel('user left'));
      return read;
    });
    expect(recorded.output).toEqual(['stream-start', 'response-metadata']);
    expect(recorded.llm[0]?.error).toMatchObject({ name: 'NonError', message: 'user left' });
    expect(replayed.output).toEqual(recorded.output);
    expect(cancels).toEqual([undefined, undefined]);
    expect(replayed.report.status).toBe('reproduced');
  });

  it('throws from doStream when the recorded doStream threw, and streamText reports it alike', async () => {
    const live = new MockLanguageModelV3({
      doStream: () => Promise.reject(new RangeError('401 unauthorized')),
    });
    const caught: unknown[][] = [];
    const { replayed } = await roundTrip(live, async (model) => {
      const thrown = await model.doStream(params).then(
        () => 'resolved',
        (err: unknown) => err,
      );
      const reported: unknown[] = [];
      const parts = await readAll(
        streamText({ model, prompt: 'Hi', onError: ({ error }) => void reported.push(error) })
          .fullStream,
      );
      caught.push([thrown, ...reported]);
      return parts.map((part) => part.type);
    });
    expect(replayed.report.status).toBe('reproduced');
    expect(replayed.output).toContain('error');
    const [was, now] = caught;
    expect(now).toHaveLength(2);
    now?.forEach((error, index) => {
      expect(error).toBeInstanceOf(RangeError);
      expect(error).toEqual(was?.[index]);
      expect(error).toMatchObject({ name: 'RangeError', message: '401 unauthorized' });
      expect((error as Error).stack).toBe((was?.[index] as Error).stack);
    });
  });
});

describe('replaying doGenerate', () => {
  it('rebuilds the result: every content part, provider metadata, usage and a Date timestamp', async () => {
    const answer: LanguageModelV3GenerateResult = {
      content: [
        { type: 'reasoning', text: 'Check the order.' },
        {
          type: 'text',
          text: 'Here is the receipt.',
          providerMetadata: { mock: { cached: true } },
        },
        { type: 'file', mediaType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) },
        { type: 'source', sourceType: 'url', id: 'src-1', url: 'https://example.com/refunds' },
      ],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(3, 2),
      providerMetadata: { mock: { region: 'eu' } },
      response: { id: 'resp-1', modelId: 'mock-model-2026-01', timestamp: new Date(1767607200000) },
      warnings: [{ type: 'other', message: 'seed ignored' }],
    };
    // The AI SDK logs each warning; the test reads them from the results instead.
    vi.stubGlobal('AI_SDK_LOG_WARNINGS', false);
    onTestFinished(() => void vi.unstubAllGlobals());
    const results: Awaited<ReturnType<typeof generateText>>[] = [];
    const { replayed } = await roundTrip(
      new MockLanguageModelV3({ doGenerate: answer }),
      async (model) => {
        const result = await generateText({ model, prompt: 'Receipt for O-7?' });
        results.push(result);
        return result.text;
      },
    );
    expect(replayed.report.status).toBe('reproduced');
    const [was, now] = results;
    expect(now?.text).toBe('Here is the receipt.');
    expect(now?.reasoningText).toBe(was?.reasoningText);
    expect(now?.content.filter((part) => part.type !== 'file')).toEqual(
      was?.content.filter((part) => part.type !== 'file'),
    );
    // Stored as base64: the AI SDK's file gives the same bytes either way.
    expect(now?.files.map((file) => [file.mediaType, file.base64, file.uint8Array])).toEqual(
      was?.files.map((file) => [file.mediaType, file.base64, file.uint8Array]),
    );
    expect(now?.sources).toEqual(was?.sources);
    expect(now?.providerMetadata).toEqual(was?.providerMetadata);
    expect(now?.usage).toEqual(was?.usage);
    expect(now?.warnings).toEqual(was?.warnings);
    expect(now?.response.timestamp).toEqual(new Date(1767607200000));
    expect(now?.response.id).toBe('resp-1');
  });

  it('fails a call the record holds no answer for in this form with REPLAY_UNSUPPORTED', async () => {
    const live = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: 'text', text: 'Hello' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: usage(3, 2),
        warnings: [],
      },
    });
    // The agent now streams the call it generated when recorded; ordered mode serves it anyway.
    const { replayed } = await roundTrip(
      live,
      async (model) => (await model.doGenerate(params)).content,
      {
        mode: 'ordered',
        replayAgent: async (model) => (await model.doStream(params)).stream as never,
      },
    );
    expect(replayed.error).toMatchObject({
      code: 'REPLAY_UNSUPPORTED',
      message:
        'AI SDK replay of llm call "mock-model-id" (seq 1): expected a recorded stream ' +
        '(response.chunks), got a recorded call without one (metadata.api ' +
        '"ai-sdk.language-model-v3")',
    });
    expect(replayed.report).toMatchObject({
      status: 'diverged',
      divergence: { call: 1, kind: 'llm', reason: 'request' },
    });
    const events = replayed.result.record?.events as { type: string; error?: unknown }[];
    expect(events.find((event) => event.type === 'llm')?.error).toMatchObject({
      name: 'RunbackError',
      message: expect.stringContaining('expected a recorded stream') as unknown,
    });
  });
});
