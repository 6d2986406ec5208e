// Test support: a local OpenAI chat-completions server (node:http on 127.0.0.1, a free port)
// that answers each request with the next queued reply, as JSON or as server-sent events, so
// the real @ai-sdk/openai provider can be driven end to end without a network.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One queued answer. */
export type MockReply =
  | { readonly status?: number; readonly json: unknown }
  | {
      /** Each element is sent as one `data: {...}` event; `data: [DONE]` follows. */
      readonly sse: readonly unknown[];
      /** Send only this many events, then wait for `resume` before sending the rest. */
      readonly pauseAfter?: number;
      readonly resume?: Promise<void>;
    };

/** A request the server received. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

/** A running mock server. */
export interface MockOpenAI {
  /** `http://127.0.0.1:PORT/v1`, for `createOpenAI({ baseURL })`. */
  readonly baseURL: string;
  readonly requests: readonly SeenRequest[];
  /** Queues replies, answered in order. */
  reply(...replies: MockReply[]): void;
  close(): Promise<void>;
}

/** Starts a mock server on 127.0.0.1 and a free port. */
export async function startMockOpenAI(): Promise<MockOpenAI> {
  const queue: MockReply[] = [];
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    answer(req, res).catch((err: unknown) => res.destroy(err as Error));
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    });
    // No Date header: two answers to the same request are then byte for byte the same.
    res.sendDate = false;
    const reply = queue.shift() ?? {
      status: 500,
      json: { error: { message: 'expected a queued reply, got none', type: 'test_error' } },
    };
    if (!('sse' in reply)) {
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.json));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pauseAt = reply.pauseAfter ?? reply.sse.length;
    for (const [index, event] of reply.sse.entries()) {
      if (index === pauseAt) await reply.resume;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err === undefined ? resolve() : reject(err)));
      }),
  };
}
