// Replaying AI SDK agents recorded through runbackMiddleware over the real @ai-sdk/openai chat
// model: the mock server is stopped before each replay, and the replay's model would fetch from
// its closed port, so every answer must come from the record.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { APICallError, generateText, RetryError, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ReplayOptions } from '../../recorder/replay.js';
import { ReplayMissError } from '../../session/replay-source.js';
import { tool as recordTool } from '../../hooks/spans/tool.js';
import {
  completion,
  serverError,
  textEvents,
  toolCallCompletion,
  toolEvents,
} from '../../../test/support/ai/openai-fixtures.js';
import { recordThenReplayOpenAI } from '../../../test/support/ai/record-then-replay.js';
import { readAll } from '../../../test/support/ai/record-to-file.js';
import { keptHeaders } from '../../hooks/providers/http-headers.js';

/** The get_order tool, recorded with runback's tool(); counts how often it really runs. */
function orderTools(runs: { count: number }) {
  return {
    get_order: tool({
      description: 'Look an order up',
      inputSchema: z.object({ id: z.string() }),
      execute: (input, { toolCallId }) =>
        recordTool(
          'get_order',
          input,
          async () => {
            runs.count++;
            return { id: input.id, total: 12.5 };
          },
          { toolCallId },
        ),
    }),
  };
}

/** A generateText tool round: the model asks for the tool, then answers with its result. */
const generateRefund = (model: LanguageModelV3, prompt: string, runs: { count: number }) =>
  generateText({
    model,
    system: 'You approve refunds.',
    prompt,
    tools: orderTools(runs),
    stopWhen: stepCountIs(2),
  });

/** What an agent saw, kept outside the record to compare the AI SDK's own values. */
interface Seen {
  generated?: Awaited<ReturnType<typeof generateRefund>>;
  full?: unknown[];
  textParts?: string[];
}

/**
 * A generateText tool round (model, tool, model), then a streamText tool round read through
 * fullStream and textStream at once. Returns a JSON summary; `seen` gets the values themselves.
 */
function refundAgent(seen: Seen[], runs: { count: number }, prompt = 'Refund order O-7?') {
  return async (model: LanguageModelV3) => {
    const generated = await generateRefund(model, prompt, runs);
    const streamed = streamText({
      model,
      prompt: 'And O-7 again?',
      tools: orderTools(runs),
      stopWhen: stepCountIs(2),
    });
    const [full, textParts] = await Promise.all([
      readAll(streamed.fullStream),
      readAll(streamed.textStream),
    ]);
    seen.push({ generated, full, textParts });
    return {
      text: generated.text,
      toolCalls: generated.steps[0]?.toolCalls.map((call) => [call.toolName, call.input]),
      streamed: textParts.join(''),
    };
  };
}

/**
 * Records the refund agent against the mock server, then replays it, asking `replayPrompt`
 * instead when given. `seen` holds what each run saw; `runs` counts real tool runs.
 */
async function replayRefund(options: ReplayOptions & { readonly replayPrompt?: string } = {}) {
  const { replayPrompt, ...replayOptions } = options;
  const seen: Seen[] = [];
  const runs = { count: 0 };
  const replies = [
    { json: toolCallCompletion },
    { json: completion },
    { sse: toolEvents },
    { sse: textEvents },
  ];
  const result = await recordThenReplayOpenAI(replies, refundAgent(seen, runs), {
    ...replayOptions,
    replayAgent: refundAgent(seen, runs, replayPrompt),
  });
  return { ...result, seen, runs };
}

/**
 * The parts with the transport taken out: the HTTP request body of each step
 * (`start-step.request`, it repeats the request; the record does not hold it) and the response
 * headers (`finish-step.response.headers`; the record holds only those a client acts on, by an
 * allowlist, never cookies or account ids), compared on their own.
 */
function withoutTransport(parts: readonly unknown[]): unknown[] {
  return parts.map((part) => {
    const { type, request: _request, ...rest } = part as Record<string, unknown>;
    if (type === 'start-step') return { type, ...rest };
    if (type !== 'finish-step') return part;
    const { headers: _headers, ...response } = rest['response'] as Record<string, unknown>;
    return { type, ...rest, response };
  });
}

describe('replaying runbackMiddleware over @ai-sdk/openai', () => {
  it('reproduces generateText and streamText tool rounds with no request sent and no tool run', async () => {
    const { recorded, replayed, fetched, seen, runs } = await replayRefund();
    expect(fetched.recording).toHaveLength(4);
    expect(recorded.verdict.verdict).toBe('valid');
    // In seq order (the order the calls started, which the cassette follows). The array order
    // can differ: streamText runs the tool while the first stream is still open, and a stream's
    // llm event is appended when the stream ends.
    const calls = (events: readonly unknown[]) =>
      events
        .map((event) => event as { type: string; seq: number })
        .sort((a, b) => a.seq - b.seq)
        .map(({ type, seq }) => `${type}:${seq}`);
    expect(calls(recorded.events)).toEqual([
      ...['run:0', 'llm:1', 'tool:2', 'llm:3'],
      ...['llm:4', 'tool:5', 'llm:6', 'run:7'],
    ]);

    expect(replayed.error).toBeUndefined();
    expect(replayed.report).toMatchObject({
      status: 'reproduced',
      verdict: 'valid',
      cassetteMatches: true,
      outputMatches: true,
      divergence: null,
      misses: [],
      unserved: 0,
    });
    expect(replayed.report.replayed.cassetteDigest).toBe(replayed.report.recorded.cassetteDigest);
    expect(replayed.output).toEqual(recorded.output);
    expect(calls(replayed.result.record?.events ?? [])).toEqual(calls(recorded.events));
    expect(recorded.output).toEqual({
      text: 'Refund approved.',
      toolCalls: [['get_order', { id: 'O-7' }]],
      streamed: 'Refund approved.',
    });
    // Nothing reached the network, and the tool ran only while recording: the replay's two
    // tool calls were answered from the record.
    expect(fetched.replay).toEqual([]);
    expect(runs.count).toBe(2);

    expect(seen).toHaveLength(2);
    const [live, again] = seen;
    expect(again?.generated?.text).toBe(live?.generated?.text);
    expect(again?.generated?.toolCalls).toEqual(live?.generated?.toolCalls);
    expect(again?.generated?.steps[0]?.toolCalls).toEqual(live?.generated?.steps[0]?.toolCalls);
    expect(again?.generated?.steps[0]?.toolResults).toEqual(live?.generated?.steps[0]?.toolResults);
    expect(again?.generated?.response.messages).toEqual(live?.generated?.response.messages);
    expect(again?.generated?.response.timestamp).toEqual(live?.generated?.response.timestamp);
    expect(again?.generated?.usage).toEqual(live?.generated?.usage);
    expect(again?.generated?.finishReason).toBe(live?.generated?.finishReason);
    // The same parts in the same order, Dates and all.
    expect(again?.textParts).toEqual(live?.textParts);
    expect(again?.full?.map((part) => (part as { type: string }).type)).toEqual(
      live?.full?.map((part) => (part as { type: string }).type),
    );
    expect(withoutTransport(again?.full ?? [])).toEqual(withoutTransport(live?.full ?? []));
    // Which is all that differs: the record holds no request body, so the replay has none; it
    // holds the response headers a client acts on, and the streamed steps get them back as the
    // generated ones do.
    const headersOf = (parts: readonly unknown[] | undefined) =>
      (parts ?? [])
        .map((part) => part as { type: string; response?: { headers?: Record<string, string> } })
        .filter((part) => part.type === 'finish-step')
        .map((part) => part.response?.headers);
    const liveHeaders = headersOf(live?.full);
    expect(liveHeaders.length).toBeGreaterThan(0);
    expect(headersOf(again?.full)).toEqual(
      liveHeaders.map((headers) => keptHeaders(new Headers(headers), 'provider')),
    );
    expect(headersOf(again?.full)[0]).toEqual({
      'content-type': expect.stringMatching(/^text\/event-stream/),
    });
    expect(again?.generated?.response.headers).toEqual(
      keptHeaders(new Headers(live?.generated?.response.headers), 'provider'),
    );
    expect(again?.generated?.response.headers).toEqual({
      'content-type': expect.stringMatching(/^application\/json/),
    });
    for (const part of again?.full ?? []) {
      const { type, request } = part as { type: string; request?: unknown };
      if (type === 'start-step') expect(request).toEqual({});
    }
  });

  it('stops a strict replay at a changed prompt with REPLAY_MISS and the request diff', async () => {
    const { replayed, fetched } = await replayRefund({ replayPrompt: 'Refund order O-8?' });
    const error = replayed.error as ReplayMissError;
    expect(error).toBeInstanceOf(ReplayMissError);
    expect(error.code).toBe('REPLAY_MISS');
    expect(error.message).toBe(
      'strict replay: no recorded llm call "gpt-4o-mini" matches this request; nearest recorded ' +
        'call is seq 1, which differs at /messages/0/content/0/text: expected "Refund order O-7?", ' +
        'got "Refund order O-8?"',
    );
    expect(error.miss.inputDiff).toEqual([
      {
        op: 'replace',
        path: '/messages/0/content/0/text',
        before: 'Refund order O-7?',
        after: 'Refund order O-8?',
      },
    ]);
    expect(replayed.report.status).toBe('diverged');
    expect(replayed.report.misses).toEqual([error.miss]);
    expect(fetched.replay).toEqual([]);
  });

  it('completes an ordered replay of a changed prompt and reports the divergence at that call', async () => {
    const { recorded, replayed, fetched } = await replayRefund({
      mode: 'ordered',
      replayPrompt: 'Refund order O-8?',
    });
    expect(replayed.error).toBeUndefined();
    // Every call was answered by its recorded counterpart, so the agent ends as it did.
    expect(replayed.output).toEqual(recorded.output);
    expect(replayed.report).toMatchObject({
      status: 'diverged',
      mode: 'ordered',
      cassetteMatches: false,
      outputMatches: true,
      misses: [],
      unserved: 0,
      divergence: {
        call: 1,
        kind: 'llm',
        name: 'gpt-4o-mini',
        reason: 'request',
        recordedSeq: 1,
        replayedSeq: 1,
        output: [],
      },
    });
    expect(replayed.report.divergence?.input).toContainEqual({
      op: 'replace',
      path: '/messages/0/content/0/text',
      before: 'Refund order O-7?',
      after: 'Refund order O-8?',
    });
    expect(fetched.replay).toEqual([]);
  });

  it('replays a recorded HTTP 500 as the same APICallError, retries included', async () => {
    const caught: { generated: unknown; streamed: unknown }[] = [];
    const agent = async (model: LanguageModelV3) => {
      // One retry: the AI SDK retries an APICallError only when it is retryable, so a replay
      // that lost `isRetryable` would make one call where the recording made two.
      const generated = await generateText({ model, prompt: 'Hi', maxRetries: 1 }).catch(
        (err: unknown) => err,
      );
      const errors: unknown[] = [];
      await readAll(
        streamText({
          model,
          prompt: 'Hi',
          maxRetries: 0,
          onError: ({ error }) => void errors.push(error),
        }).fullStream,
      );
      caught.push({ generated, streamed: errors[0] });
      return [generated, errors[0]].map((err) => String(err));
    };
    const { recorded, replayed, fetched } = await recordThenReplayOpenAI(
      [
        { status: 500, json: serverError },
        { status: 500, json: serverError },
        { status: 500, json: serverError },
      ],
      agent,
    );
    expect(recorded.llm).toHaveLength(3);
    expect(recorded.llm[0]?.metadata).toEqual({
      api: 'ai-sdk.language-model-v3',
      http_status: 500,
      retryable: true,
      error_body: JSON.stringify(serverError),
      error_data: serverError,
    });
    expect(recorded.verdict.verdict).toBe('valid');
    expect(replayed.report).toMatchObject({ status: 'reproduced', misses: [], unserved: 0 });
    expect(replayed.output).toEqual(recorded.output);
    expect(fetched.replay).toEqual([]);

    const [was, now] = caught;
    expect(RetryError.isInstance(was?.generated)).toBe(true);
    expect(RetryError.isInstance(now?.generated)).toBe(true);
    const [before, after] = [was?.generated as RetryError, now?.generated as RetryError];
    expect(after.message).toBe(before.message);
    expect(after.reason).toBe(before.reason);
    expect(after.errors).toHaveLength(2);
    for (const error of [...after.errors, after.lastError, now?.streamed]) {
      expect(APICallError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        name: 'AI_APICallError',
        message: 'The server had an error while processing your request.',
        statusCode: 500,
        isRetryable: true,
        responseBody: JSON.stringify(serverError),
        data: serverError,
      });
    }
  }, 20_000);
});
