// HttpSink against a mock audit service on 127.0.0.1 that the test starts: batches bounded by
// count and time, retries with the same idempotency key on network errors, 5xx and 429,
// back-pressure while the service stalls, and a clear error when the run cannot be delivered.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpSink, httpSinkFromEnv, record, tool } from '../index.js';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly key: string | undefined;
  readonly body: { events?: unknown[]; name?: string; status?: string };
}

/** A mock service: `plan(req)` may answer instead of the default handler. */
async function mockService(
  plan?: (seen: Seen, n: number, res: ServerResponse) => boolean | Promise<boolean>,
) {
  const seen: Seen[] = [];
  const applied = new Map<string, number>();
  let events = 1;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', async () => {
      const entry: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        key: req.headers['idempotency-key'] as string | undefined,
        body: text === '' ? {} : (JSON.parse(text) as Seen['body']),
      };
      seen.push(entry);
      if (plan !== undefined && (await plan(entry, seen.length, res))) return;
      res.setHeader('content-type', 'application/json');
      if (entry.path === '/api/runs') {
        res.statusCode = 201;
        res.end(JSON.stringify({ run_id: 'run_remote0000001' }));
      } else if (entry.path.endsWith('/events')) {
        if (entry.key !== undefined && !applied.has(entry.key)) {
          events += entry.body.events?.length ?? 0;
          applied.set(entry.key, entry.body.events?.length ?? 0);
        }
        res.statusCode = 201;
        res.end(
          JSON.stringify({ accepted: applied.get(entry.key as string), event_count: events }),
        );
      } else {
        res.end(JSON.stringify({ run_id: 'run_remote0000001', event_count: events + 1 }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(server);
  return { url, seen, applied };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const lookup = (i: number) => tool('lookup', { i }, async ({ i: n }) => ({ n }));

describe('HttpSink', () => {
  it('opens the run, sends batches bounded by count, finishes with the run end', async () => {
    const svc = await mockService();
    const sink = new HttpSink({ url: svc.url, apiKey: 'k', batchEvents: 4, maxDelayMs: 10_000 });
    await record({ name: 'batched', input: { q: 1 }, sink }, async () => {
      for (let i = 0; i < 10; i++) await lookup(i);
      return 'done';
    });
    expect(svc.seen[0]).toMatchObject({
      method: 'POST',
      path: '/api/runs',
      body: { name: 'batched', input: { q: 1 } },
    });
    const batches = svc.seen.filter((s) => s.path.endsWith('/events'));
    expect(batches.map((b) => b.body.events?.length)).toEqual([4, 4, 2]);
    expect(new Set(batches.map((b) => b.key)).size).toBe(3);
    const sent = batches.flatMap((b) => b.body.events ?? []) as Record<string, unknown>[];
    expect(
      sent.every(
        (e) => e['type'] === 'tool' && e['_hash'] === undefined && e['run_id'] === undefined,
      ),
    ).toBe(true);
    expect(sent.map((e) => (e['input'] as { i: number }).i)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(svc.seen.at(-1)).toMatchObject({
      path: '/api/runs/run_remote0000001/finish',
      body: { status: 'success', output: 'done' },
    });
  });

  it('sends a partial batch when its oldest event has waited maxDelayMs', async () => {
    const svc = await mockService();
    const sink = new HttpSink({ url: svc.url, apiKey: 'k', batchEvents: 100, maxDelayMs: 30 });
    await record({ name: 'timed', sink }, async () => {
      await lookup(1);
      await new Promise((r) => setTimeout(r, 200));
      expect(svc.seen.filter((s) => s.path.endsWith('/events'))).toHaveLength(1);
      await lookup(2);
    });
    expect(
      svc.seen.filter((s) => s.path.endsWith('/events')).map((b) => b.body.events?.length),
    ).toEqual([1, 1]);
  });

  it('retries network errors, 503 and 429 with the same idempotency key; applied once', async () => {
    const svc = await mockService((seen, _n, res) => {
      if (!seen.path.endsWith('/events')) return false;
      const tries = svc.seen.filter((s) => s.key === seen.key).length;
      if (tries === 1) {
        res.socket?.destroy();
        return true;
      }
      if (tries === 2) {
        res.statusCode = 503;
        res.end('{"error":{"code":"INTERNAL","message":"busy"}}');
        return true;
      }
      if (tries === 3) {
        res.statusCode = 429;
        res.setHeader('retry-after', '0');
        res.end('{}');
        return true;
      }
      return false;
    });
    const sink = new HttpSink({
      url: svc.url,
      apiKey: 'k',
      batchEvents: 2,
      retryBaseMs: 5,
      retryMaxMs: 20,
    });
    await record({ name: 'flaky', sink }, async () => {
      for (let i = 0; i < 4; i++) await lookup(i);
    });
    const batches = svc.seen.filter((s) => s.path.endsWith('/events'));
    expect(batches).toHaveLength(8);
    expect(new Set(batches.map((b) => b.key)).size).toBe(2);
    expect([...svc.applied.values()]).toEqual([2, 2]);
  });

  it('applies back-pressure while the service stalls instead of dropping events', async () => {
    let release!: () => void;
    const stalled = new Promise<void>((r) => (release = r));
    const svc = await mockService(async (seen) => {
      if (seen.path.endsWith('/events')) await stalled;
      return false;
    });
    const sink = new HttpSink({
      url: svc.url,
      apiKey: 'k',
      batchEvents: 2,
      maxBufferedEvents: 3,
      maxDelayMs: 5,
    });
    let waited = false;
    const done = record({ name: 'slow', sink }, async () => {
      for (let i = 0; i < 12; i++) {
        if (sink.buffered >= 3) waited = true;
        expect(sink.buffered).toBeLessThanOrEqual(3);
        await lookup(i);
      }
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(waited).toBe(true);
    release();
    await done;
    const sent = svc.seen
      .filter((s) => s.path.endsWith('/events'))
      .flatMap((b) => b.body.events ?? []);
    expect(sent).toHaveLength(12);
  });

  it('a refused batch makes the end of the run fail with a clear error', async () => {
    const svc = await mockService((seen, _n, res) => {
      if (!seen.path.endsWith('/events')) return false;
      res.statusCode = 409;
      res.end(
        '{"error":{"code":"RUN_SEALED","message":"expected run to be running, got a sealed run"}}',
      );
      return true;
    });
    const sink = new HttpSink({ url: svc.url, apiKey: 'k', batchEvents: 1 });
    await expect(record({ name: 'refused', sink }, () => lookup(1))).rejects.toMatchObject({
      code: 'HTTP_SINK_FAILED',
      message: expect.stringMatching(/refused: HTTP 409 RUN_SEALED: expected run to be running/),
    });
  });

  it('gives up after its attempts when the service is unreachable', async () => {
    const sink = new HttpSink({
      url: 'http://127.0.0.1:1',
      apiKey: 'k',
      attempts: 3,
      retryBaseMs: 1,
    });
    await expect(record({ name: 'nowhere', sink }, () => lookup(1))).rejects.toMatchObject({
      code: 'HTTP_SINK_FAILED',
      message: expect.stringMatching(/failed 3 times/),
    });
  });

  it('checks its options and reads RUNBACK_API_URL and RUNBACK_API_KEY', () => {
    expect(() => new HttpSink({ url: 'ftp://x', apiKey: 'k' })).toThrow(/http\(s\) URL/);
    expect(() => new HttpSink({ url: 'http://x', apiKey: '' })).toThrow(/apiKey/);
    expect(() => new HttpSink({ url: 'http://x', apiKey: 'k', batchEvents: 0 })).toThrow(
      /batchEvents/,
    );
    expect(httpSinkFromEnv({})).toBeUndefined();
    expect(
      httpSinkFromEnv({ RUNBACK_API_URL: 'http://127.0.0.1:9', RUNBACK_API_KEY: 'k' }),
    ).toBeInstanceOf(HttpSink);
    expect(() => httpSinkFromEnv({ RUNBACK_API_URL: 'http://127.0.0.1:9' })).toThrow(
      /RUNBACK_API_KEY/,
    );
  });
});
