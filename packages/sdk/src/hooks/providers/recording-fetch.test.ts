import { describe, expect, it, vi } from 'vitest';
import { CHAT_MODEL, CHAT_STREAM, CHAT_TEXT } from '../../../test/mock-llm/openai.js';
import { mockServerPerTest } from '../../../test/mock-llm/lifecycle.js';
import { recordToFile } from '../../../test/mock-llm/recording.js';
import { runbackFetch, type FetchFunction } from './recording-fetch.js';

const server = mockServerPerTest();
const chatInit = (stream = false): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: CHAT_MODEL, messages: [], stream }),
});

const concat = (pieces: readonly Uint8Array[]) =>
  Buffer.concat(pieces.map((piece) => Buffer.from(piece)));

describe('runbackFetch', () => {
  it('hands the very same arguments to the wrapped fetch outside a run, and for other requests inside one', async () => {
    const inner = vi.fn<FetchFunction>(async () => new Response('{}'));
    const recording = runbackFetch(inner);
    const init = chatInit();
    await recording('http://api.test/v1/chat/completions', init);
    const other = { method: 'GET' };
    await recordToFile(() => recording('http://api.test/health', other));
    expect(inner.mock.calls).toEqual([
      ['http://api.test/v1/chat/completions', init],
      ['http://api.test/health', other],
    ]);
    expect(inner.mock.calls[0]![1]).toBe(init);
    expect(inner.mock.calls[1]![1]).toBe(other);
  });

  it('sends a recorded call with the caller’s own arguments, so fetch options a Request drops still arrive', async () => {
    server().reply({ json: CHAT_TEXT });
    const seen: unknown[] = [];
    const inner: FetchFunction = (input, init) => {
      const { dispatcher, ...standard } = init as RequestInit & { dispatcher?: unknown };
      seen.push(dispatcher);
      return fetch(input, standard);
    };
    const init = { ...chatInit(), dispatcher: 'proxy-agent' } as RequestInit;
    const written = await recordToFile(() =>
      runbackFetch(inner)(`${server().url}/v1/chat/completions`, init),
    );
    expect(seen).toEqual(['proxy-agent']);
    expect(written.llm).toHaveLength(1);
  });

  it('sends a Request when the body was a stream the Request took over', async () => {
    server().reply({ json: CHAT_TEXT });
    const inner = vi.fn<FetchFunction>((input, init) => fetch(input, init));
    const body = new Blob([chatInit().body as string]).stream();
    const written = await recordToFile(() =>
      runbackFetch(inner)(`${server().url}/v1/chat/completions`, {
        method: 'POST',
        body,
        duplex: 'half',
      } as RequestInit),
    );
    expect(inner.mock.calls[0]![0]).toBeInstanceOf(Request);
    expect(written.llm[0]!.request.messages).toEqual([]);
    expect(server().requests[0]!.body).toBe(chatInit().body);
  });

  it('passes each piece of a stream on as it arrives, byte for byte, before the server has finished', async () => {
    let resume!: () => void;
    server().reply({
      sse: CHAT_STREAM,
      plan: { pauseAfter: 2, resume: new Promise<void>((r) => (resume = r)) },
    });
    const written = await recordToFile(async () => {
      const response = await runbackFetch()(`${server().url}/v1/chat/completions`, chatInit(true));
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const received: Uint8Array[] = [];
      // The server holds back everything after its second event until the client has read it.
      while (concat(received).toString('utf8').split('\n\n').length < 3) {
        const next = await reader.read();
        if (next.done) throw new Error('expected the stream to stay open, got its end');
        received.push(next.value);
      }
      resume();
      for (let next = await reader.read(); !next.done; next = await reader.read())
        received.push(next.value);
      return concat(received);
    });
    expect(written.output.equals(concat(server().sent[0]!))).toBe(true);
    expect(written.llm[0]!.response?.chunks).toEqual(CHAT_STREAM);
  });

  it('is idempotent and checks its argument', () => {
    const once = runbackFetch(fetch);
    expect(runbackFetch(once)).toBe(once);
    expect(() => runbackFetch('fetch' as unknown as FetchFunction)).toThrow(
      expect.objectContaining({
        code: 'ARG_INVALID',
        message: 'fetchImpl: expected a fetch function, got "fetch"',
      }),
    );
  });
});
