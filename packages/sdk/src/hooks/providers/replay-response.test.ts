// Replaying recorded OpenAI and Anthropic calls with the real clients and no server: every
// answer comes from the record, through the clients' own parsing, and the replay reproduces
// the record's cassette.
import { Anthropic } from '@anthropic-ai/sdk';
import { OpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { instrumentAnthropic } from '../../integrations/anthropic/index.js';
import { instrumentOpenAI } from '../../integrations/openai/index.js';
import {
  CLAUDE_MODEL,
  MESSAGE_OVERLOADED_STREAM,
  MESSAGE_STREAM,
} from '../../../test/mock-llm/anthropic.js';
import {
  collect,
  mockServerPerTest,
  PLAIN_API_KEY,
  rejectionOf,
} from '../../../test/mock-llm/lifecycle.js';
import {
  CHAT_MODEL,
  CHAT_STREAM,
  CHAT_TEXT,
  openaiError,
  RESPONSE_STREAM,
} from '../../../test/mock-llm/openai.js';
import { recordToFile } from '../../../test/mock-llm/recording.js';
import { replay } from '../../recorder/replay.js';

const server = mockServerPerTest();
const messages = [{ role: 'user' as const, content: 'Hi' }];

/** An agent making one call of every kind, failures included; it reports what its clients gave it. */
function agentAgainst(baseURL: string) {
  return async () => {
    const openai = instrumentOpenAI(
      new OpenAI({ apiKey: PLAIN_API_KEY, baseURL: `${baseURL}/v1`, maxRetries: 0 }),
    );
    const anthropic = instrumentAnthropic(
      new Anthropic({ apiKey: PLAIN_API_KEY, baseURL, maxRetries: 0 }),
    );
    const chat = await openai.chat.completions.create({ model: CHAT_MODEL, messages });
    const chatStream = await collect(
      await openai.chat.completions.create({ model: CHAT_MODEL, messages, stream: true }),
    );
    const responses = await collect(
      await openai.responses.create({ model: 'gpt-4.1-mini', input: 'Hi', stream: true }),
    );
    const message = await anthropic.messages
      .stream({ model: CLAUDE_MODEL, messages, max_tokens: 64 })
      .finalMessage();
    // Every raw stream event the client yields, to compare in order after the replay.
    const messageStream = await collect(
      await anthropic.messages.create({
        model: CLAUDE_MODEL,
        messages,
        max_tokens: 64,
        stream: true,
      }),
    );
    const refused = await rejectionOf(
      openai.chat.completions.create({ model: CHAT_MODEL, messages, temperature: 9 }),
    );
    const dropped = await rejectionOf(
      (async () =>
        collect(
          await openai.chat.completions.create({ model: CHAT_MODEL, messages: [], stream: true }),
        ))(),
    );
    const overloaded = await rejectionOf(
      (async () =>
        collect(
          await anthropic.messages.create({
            model: CLAUDE_MODEL,
            messages,
            max_tokens: 8,
            stream: true,
          }),
        ))(),
    );
    return {
      chat,
      chatStream,
      responses,
      message,
      messageStream,
      refused: [(refused as InstanceType<typeof OpenAI.APIError>).status, String(refused)],
      dropped: dropped instanceof Error,
      // The error body itself, not the client's message: the client writes an in-band error
      // body into its message as JSON text, whose member order a record does not keep.
      overloaded: [
        String((overloaded as InstanceType<typeof Anthropic.APIError>).type),
        (overloaded as InstanceType<typeof Anthropic.APIError>).error,
      ],
    };
  };
}

describe('replaying provider calls', () => {
  it('answers every call from the record, with no server, and reproduces the record', async () => {
    server().reply(
      { json: CHAT_TEXT },
      { sse: CHAT_STREAM },
      { sse: RESPONSE_STREAM },
      { sse: MESSAGE_STREAM },
      { sse: MESSAGE_STREAM },
      {
        json: openaiError('temperature: expected at most 2', 'invalid_request_error'),
        status: 400,
      },
      { sse: CHAT_STREAM, plan: { dropAfter: 2 } },
      { sse: MESSAGE_OVERLOADED_STREAM },
    );
    const url = server().url;
    const written = await recordToFile(agentAgainst(url));
    expect(written.verdict.verdict).toBe('valid');
    expect(written.llm).toHaveLength(8);
    await server().close();

    const { report, output, error } = await replay({ path: written.path }, agentAgainst(url), {
      trust: { pinned: [written.publicKey] },
    });
    expect(error).toBeUndefined();
    expect(report.misses).toEqual([]);
    expect(report.unserved).toBe(0);
    // Same values, and every stream re-emitted chunk for chunk in the recorded order.
    expect(output).toEqual(written.output);
    const streams = output as {
      chatStream: unknown[];
      responses: unknown[];
      messageStream: unknown[];
    };
    expect(streams.chatStream.length).toBeGreaterThan(1);
    expect(streams.messageStream.length).toBeGreaterThan(1);
    expect(report.cassetteMatches).toBe(true);
    expect(report.status).toBe('reproduced');
  });

  it('replays zero-code capture: a plain client constructed inside the run', async () => {
    server().reply({ sse: MESSAGE_STREAM }, { json: CHAT_TEXT });
    const url = server().url;
    const agent = async () => {
      const anthropic = new Anthropic({ apiKey: PLAIN_API_KEY, baseURL: url, maxRetries: 0 });
      const openai = new OpenAI({ apiKey: PLAIN_API_KEY, baseURL: `${url}/v1`, maxRetries: 0 });
      const message = await anthropic.messages
        .stream({ model: CLAUDE_MODEL, messages, max_tokens: 64 })
        .finalMessage();
      return {
        message,
        chat: await openai.chat.completions.create({ model: CHAT_MODEL, messages }),
      };
    };
    const written = await recordToFile(agent, { captureEnv: true });
    expect(written.llm).toHaveLength(2);
    await server().close();

    const { report, output } = await replay({ path: written.path }, agent, {
      trust: { pinned: [written.publicKey] },
    });
    expect(report.misses).toEqual([]);
    expect(output).toEqual(written.output);
    expect(report.status).toBe('reproduced');
  });
});
