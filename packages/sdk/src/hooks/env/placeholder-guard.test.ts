// A request carrying a replay's placeholder credential never reaches the network: a real
// server on 127.0.0.1 counts what arrives.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../../test/mock-llm/server.js';
import { PLACEHOLDER_CREDENTIAL } from '../../session/placeholder-credentials.js';
import { guardHttpRequests, guardedFetch } from './placeholder-guard.js';
import { originalFetch } from '../../core/internal-globals.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ whenEmpty: { json: { ok: true } } });
  guardHttpRequests();
});
afterAll(() => server.close());

const fetchGuarded = guardedFetch(originalFetch as typeof fetch);

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return (err as { code?: unknown }).code;
  }
  return 'sent';
}

describe('guardedFetch', () => {
  it('refuses a placeholder in a header or the URL, and sends nothing', async () => {
    const before = server.requests.length;
    const headers = { authorization: `Bearer ${PLACEHOLDER_CREDENTIAL}` };
    expect(
      await codeOf(fetchGuarded(`${server.url}/v1/chat`, { method: 'POST', headers, body: '{}' })),
    ).toBe('REPLAY_PLACEHOLDER_CREDENTIAL');
    expect(
      await codeOf(
        fetchGuarded(
          new Request(`${server.url}/v1`, { headers: { 'x-api-key': PLACEHOLDER_CREDENTIAL } }),
        ),
      ),
    ).toBe('REPLAY_PLACEHOLDER_CREDENTIAL');
    expect(await codeOf(fetchGuarded(`${server.url}/v1?key=${PLACEHOLDER_CREDENTIAL}`))).toBe(
      'REPLAY_PLACEHOLDER_CREDENTIAL',
    );
    expect(server.requests.length).toBe(before);
  });

  it('the refusal says what was expected and where the placeholder was', async () => {
    const err = await fetchGuarded(`${server.url}/v1`, {
      headers: { authorization: `Bearer ${PLACEHOLDER_CREDENTIAL}` },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /expected no placeholder credential .* got .* in header authorization/,
    );
  });

  it('sends any other request unchanged', async () => {
    const response = await fetchGuarded(`${server.url}/v1/ok`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-real' },
      body: 'hello',
    });
    expect(await response.json()).toEqual({ ok: true });
    const last = server.requests[server.requests.length - 1];
    expect(last?.headers['authorization']).toBe('Bearer sk-real');
    expect(last?.body).toBe('hello');
  });
});

describe('guardedFetch passes other calls through untouched', () => {
  it('hands the original its own arguments: a stream body unread, runtime options kept', async () => {
    const seen: unknown[][] = [];
    const inner = ((...args: unknown[]) => {
      seen.push(args);
      return Promise.resolve(new Response('ok'));
    }) as typeof fetch;
    const body = new ReadableStream({ start: (c) => c.close() });
    const init = { method: 'POST', body, duplex: 'half', dispatcher: { custom: true } };
    await guardedFetch(inner)('http://127.0.0.1:9/x', init);
    expect(seen[0]?.[0]).toBe('http://127.0.0.1:9/x');
    expect(seen[0]?.[1]).toBe(init);
    expect(body.locked).toBe(false);
  });
});

describe('node:http requests', () => {
  const send = (headers: Record<string, string> | string[], later?: [string, string]) =>
    new Promise<unknown>((resolve) => {
      try {
        const url = new URL(server.url);
        const req = httpRequest({ host: url.hostname, port: url.port, path: '/h', headers });
        req.on('error', () => resolve('error'));
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        if (later !== undefined) req.setHeader(...later);
        req.end();
      } catch (err) {
        resolve((err as { code?: unknown }).code);
      }
    });

  it('refuse a placeholder given as an object, an array, or set later, and send nothing', async () => {
    const before = server.requests.length;
    expect(await send({ authorization: `Bearer ${PLACEHOLDER_CREDENTIAL}` })).toBe(
      'REPLAY_PLACEHOLDER_CREDENTIAL',
    );
    expect(await send(['x-api-key', PLACEHOLDER_CREDENTIAL])).toBe('REPLAY_PLACEHOLDER_CREDENTIAL');
    expect(await send({}, ['authorization', `Bearer ${PLACEHOLDER_CREDENTIAL}`])).toBe(
      'REPLAY_PLACEHOLDER_CREDENTIAL',
    );
    expect(server.requests.length).toBe(before);
  });

  it('send any other request', async () => {
    expect(await send({ authorization: 'Bearer sk-real' })).toBe(200);
  });
});
