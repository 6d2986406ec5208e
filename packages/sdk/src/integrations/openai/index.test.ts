import { OpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import { mockServerPerTest, PLAIN_API_KEY } from '../../../test/mock-llm/lifecycle.js';
import {
  CHAT_MODEL,
  CHAT_TEXT,
  CHAT_TOOL_CALLS,
  openaiError,
} from '../../../test/mock-llm/openai.js';
import { recordToFile } from '../../../test/mock-llm/recording.js';
import { startRun } from '../../recorder/recorder.js';
import { instrumentOpenAI, runbackFetch, type FetchFunction } from './index.js';

const server = mockServerPerTest();
const options = () => ({ apiKey: PLAIN_API_KEY, baseURL: `${server().url}/v1`, maxRetries: 0 });
const ask = (openai: OpenAI) =>
  openai.chat.completions.create({
    model: CHAT_MODEL,
    messages: [{ role: 'user', content: 'Hello?' }],
  });

describe('instrumentOpenAI', () => {
  it('never writes the API key, even with redaction off; the key did reach the server', async () => {
    server().reply({ json: CHAT_TEXT });
    const openai = instrumentOpenAI(new OpenAI(options()));
    const written = await recordToFile(() => ask(openai), { redact: false });
    expect(server().requests[0]!.headers.authorization).toBe(`Bearer ${PLAIN_API_KEY}`);
    expect(written.llm).toHaveLength(1);
    expect(written.text).not.toContain(PLAIN_API_KEY);
    expect(written.text.toLowerCase()).not.toContain('authorization');
  });

  it('records nothing for calls outside a run, which return what they always did', async () => {
    server().reply({ json: CHAT_TEXT }, { json: CHAT_TEXT });
    const openai = instrumentOpenAI(new OpenAI(options()));
    const run = startRun({ name: 'idle' });
    const outside = await ask(openai);
    const result = await run.end();
    expect(outside).toEqual(await ask(new OpenAI(options())));
    expect(result.record?.events.map((event) => (event as { type: string }).type)).toEqual([
      'run',
      'run',
    ]);
  });

  it('is idempotent: instrumenting twice records each call once', async () => {
    server().reply({ json: CHAT_TEXT });
    const openai = new OpenAI(options());
    instrumentOpenAI(openai);
    const once = (openai as unknown as { fetch: unknown }).fetch;
    expect(instrumentOpenAI(openai)).toBe(openai);
    expect((openai as unknown as { fetch: unknown }).fetch).toBe(once);
    const written = await recordToFile(() => ask(openai));
    expect(written.llm).toHaveLength(1);
  });

  it('carries over to clients derived with withOptions()', async () => {
    server().reply({ json: CHAT_TEXT });
    const derived = instrumentOpenAI(new OpenAI(options())).withOptions({ timeout: 5_000 });
    const written = await recordToFile(() => ask(derived));
    expect(written.llm.map((event) => event.response?.raw)).toEqual([CHAT_TEXT]);
  });

  it('wraps a custom fetch given to the client, which still sends every request', async () => {
    server().reply({ json: CHAT_TEXT });
    const sent: string[] = [];
    const custom: FetchFunction = (input, init) => {
      sent.push(String(input));
      return fetch(input, init);
    };
    const openai = instrumentOpenAI(new OpenAI({ ...options(), fetch: custom }));
    const written = await recordToFile(() => ask(openai));
    expect(sent).toEqual([`${server().url}/v1/chat/completions`]);
    expect(written.llm).toHaveLength(1);
  });

  it('records through runbackFetch() passed as the fetch option', async () => {
    server().reply({ json: CHAT_TOOL_CALLS });
    const openai = new OpenAI({ ...options(), fetch: runbackFetch() });
    const written = await recordToFile(() => ask(openai));
    expect(written.llm[0]!.response?.tool_calls).toHaveLength(2);
  });

  it('records each attempt of a retried call, in order', async () => {
    server().reply(
      {
        json: openaiError('Overloaded', 'server_error'),
        status: 503,
        headers: { 'retry-after-ms': '1' },
      },
      { json: CHAT_TEXT },
    );
    const openai = instrumentOpenAI(new OpenAI({ ...options(), maxRetries: 1 }));
    const written = await recordToFile(() => ask(openai));
    expect(written.output).toEqual(CHAT_TEXT);
    expect(
      written.llm.map((event) => [event.metadata?.['http_status'], event.error?.name ?? null]),
    ).toEqual([
      [503, 'server_error'],
      [200, null],
    ]);
    expect(written.verdict.verdict).toBe('valid');
  });

  it('records concurrent calls as separate events', async () => {
    server().reply({ json: CHAT_TEXT }, { json: CHAT_TOOL_CALLS });
    const openai = instrumentOpenAI(new OpenAI(options()));
    const written = await recordToFile(() => Promise.all([ask(openai), ask(openai)]));
    expect(written.llm).toHaveLength(2);
    expect(new Set(written.llm.map((event) => event.span_id)).size).toBe(2);
    expect(written.verdict.verdict).toBe('valid');
  });

  it('refuses something that is not a client, with a labelled error', () => {
    expect(() => instrumentOpenAI({} as OpenAI)).toThrow(
      expect.objectContaining({
        code: 'ARG_INVALID',
        message: 'client.fetch: expected a function, as OpenAI clients have, got undefined',
      }),
    );
  });
});
