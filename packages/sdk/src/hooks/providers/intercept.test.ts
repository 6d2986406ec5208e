import { OpenAI } from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { CHAT_MODEL, CHAT_STREAM, CHAT_TEXT } from '../../../test/mock-llm/openai.js';
import { mockServerPerTest, PLAIN_API_KEY, rejectionOf } from '../../../test/mock-llm/lifecycle.js';
import { recordToFile } from '../../../test/mock-llm/recording.js';
import type { EnvEvent } from '../../core/events.js';
import { interceptProviderCall } from './intercept.js';

const server = mockServerPerTest();
const chatBody = JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: 'Hi' }] });
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${server().url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${PLAIN_API_KEY}`,
      ...headers,
    },
    body,
  });
const fetchEvents = (events: readonly { type: string }[]) =>
  events.filter(
    (event): event is EnvEvent => event.type === 'env' && (event as EnvEvent).kind === 'fetch',
  );

describe('interceptProviderCall', () => {
  it('returns undefined synchronously, body unread, for anything but a model API call', () => {
    const next = vi.fn();
    const requests = [
      new Request('http://api.test/v1/chat/completions'),
      new Request('http://api.test/v1/embeddings', { method: 'POST', body: chatBody }),
      new Request('http://api.test/v1/messages', { method: 'POST', body: chatBody }),
      new Request('http://api.test/v1/responses/resp_1/cancel', { method: 'POST', body: '{}' }),
    ];
    for (const request of requests) {
      expect(interceptProviderCall(request, next)).toBeUndefined();
      expect(request.bodyUsed).toBe(false);
    }
    expect(next).not.toHaveBeenCalled();
  });

  it('passes a recognised call straight on outside a run, leaving its body to the sender', async () => {
    const response = new Response('{}');
    const request = new Request('http://api.test/v1/chat/completions', {
      method: 'POST',
      body: chatBody,
    });
    const sent = await interceptProviderCall(request, async (req) => {
      expect(await req.text()).toBe(chatBody);
      return response;
    });
    expect(sent).toBe(response);
  });
});

describe('zero-code capture: captureEnv through globalThis.fetch', () => {
  it('records a model call made with plain fetch as an llm event, not a fetch event', async () => {
    server().reply({ json: CHAT_TEXT });
    const written = await recordToFile(
      async () => (await post('/v1/chat/completions', chatBody)).json(),
      {
        captureEnv: true,
      },
    );
    expect(written.output).toEqual(CHAT_TEXT);
    expect(written.verdict.verdict).toBe('valid');
    expect(written.llm).toHaveLength(1);
    expect(written.llm[0]!.response?.raw).toEqual(CHAT_TEXT);
    expect(fetchEvents(written.events)).toEqual([]);
    expect(written.text).not.toContain(PLAIN_API_KEY);
  });

  it('records a client constructed inside the run, which takes the wrapped global fetch', async () => {
    server().reply({ sse: CHAT_STREAM });
    const written = await recordToFile(
      async () => {
        const openai = new OpenAI({
          apiKey: PLAIN_API_KEY,
          baseURL: `${server().url}/v1`,
          maxRetries: 0,
        });
        const stream = await openai.chat.completions.create({
          model: CHAT_MODEL,
          messages: [],
          stream: true,
        });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        return text;
      },
      { captureEnv: true },
    );
    expect(written.output).toBe('Bonjour, où êtes-vous ? 🌍');
    expect(written.llm.map((event) => event.response?.chunks)).toEqual([CHAT_STREAM]);
    expect(fetchEvents(written.events)).toEqual([]);
    expect(written.verdict.verdict).toBe('valid');
  });

  it('still records other requests as fetch events, and model calls too when providers is off', async () => {
    server().reply({ json: { ok: true } }, { json: CHAT_TEXT });
    const written = await recordToFile(
      async () => {
        await (await fetch(`${server().url}/health`)).json();
        return (await post('/v1/chat/completions', chatBody)).json();
      },
      { captureEnv: { providers: false } },
    );
    expect(written.llm).toEqual([]);
    expect(
      fetchEvents(written.events).map(
        (event) => (event as unknown as { input: { url: string } }).input.url,
      ),
    ).toEqual([`${server().url}/health`, `${server().url}/v1/chat/completions`]);
  });

  it('records a network failure as a failed call, and the fetch rejects as before', async () => {
    const closed = server().url;
    await server().close();
    const written = await recordToFile(
      () => rejectionOf(fetch(`${closed}/v1/chat/completions`, { method: 'POST', body: chatBody })),
      { captureEnv: true },
    );
    expect(written.output).toBeInstanceOf(TypeError);
    const event = written.llm[0]!;
    expect(event.response).toBeNull();
    expect(event.error).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect(event.metadata).toEqual({ api: 'openai.chat.completions' });
  });

  it('leaves a body without a model unrecorded as a model call', async () => {
    server().reply({ json: CHAT_TEXT });
    const written = await recordToFile(
      async () => (await post('/v1/chat/completions', '{"messages":[]}')).status,
      {
        captureEnv: true,
      },
    );
    expect(written.output).toBe(200);
    expect(written.llm).toEqual([]);
  });
});
