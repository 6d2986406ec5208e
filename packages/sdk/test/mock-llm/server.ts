// A local model API server for tests: node:http on 127.0.0.1, a free port, answering each
// request with the next scripted reply (JSON, an SSE stream, or plain text) and keeping every
// request it received and every byte it sent, so tests can compare them with what the client
// saw and what the record holds.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatSse, type SseFrame } from './sse.js';

/** A request as the server received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How a streamed reply is cut into writes. */
export interface StreamPlan {
  /** Writes each event in two pieces, the cut inside the event (inside a UTF-8 sequence if any). */
  readonly splitEvents?: boolean;
  /** After this many events, waits for `resume` before sending the rest. */
  readonly pauseAfter?: number;
  readonly resume?: Promise<void>;
  /** After this many events, destroys the connection instead of sending the rest. */
  readonly dropAfter?: number;
}

/** One scripted reply. */
export type MockReply =
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  | {
      readonly sse: readonly SseFrame[];
      readonly plan?: StreamPlan;
      readonly headers?: Record<string, string>;
    }
  | { readonly text: string; readonly status: number };

/** A running mock server. */
export interface MockServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: readonly ReceivedRequest[];
  /** The bytes written for each reply, write by write. */
  readonly sent: readonly (readonly Uint8Array[])[];
  /** Queues replies, answered in order. */
  reply(...replies: MockReply[]): void;
  close(): Promise<void>;
}

/** How a server answers beyond its scripted replies. */
export interface MockServerOptions {
  /**
   * `provider` (the default): JSON and SSE replies carry `x-request-id` and `request-id`, as
   * the providers' APIs send them. `none`: no request ids and no Date header, so that two
   * answers to the same request are byte for byte the same.
   */
  readonly headers?: 'provider' | 'none';
  /** The reply when none is queued; default a 599 text answer naming the mistake. */
  readonly whenEmpty?: MockReply;
  /**
   * Answers a request from its content before the queue is consulted (undefined: use the queue),
   * so that concurrent requests get the same answers whatever order they arrive in.
   */
  readonly route?: (request: ReceivedRequest) => MockReply | undefined;
}

const REQUEST_ID = 'req_mock_0001';

/** Starts a mock server; close it after the test. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const idHeaders: Record<string, string> =
    options.headers === 'none' ? {} : { 'x-request-id': REQUEST_ID, 'request-id': REQUEST_ID };
  const queue: MockReply[] = [];
  const requests: ReceivedRequest[] = [];
  const sent: Uint8Array[][] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
      };
      requests.push(received);
      const reply = options.route?.(received) ?? queue.shift() ?? options.whenEmpty;
      const writes: Uint8Array[] = [];
      sent.push(writes);
      if (options.headers === 'none') res.sendDate = false;
      void answer(res, reply, writes, idHeaders);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sent,
    reply: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

async function answer(
  res: ServerResponse,
  reply: MockReply | undefined,
  writes: Uint8Array[],
  idHeaders: Record<string, string>,
): Promise<void> {
  const write = (bytes: Uint8Array) => {
    writes.push(bytes);
    res.write(bytes);
  };
  if (reply === undefined) {
    res.writeHead(599, { 'content-type': 'text/plain' }).end('mock server: no reply scripted');
    return;
  }
  if ('json' in reply) {
    res.writeHead(reply.status ?? 200, {
      'content-type': 'application/json',
      ...idHeaders,
      ...reply.headers,
    });
    write(Buffer.from(JSON.stringify(reply.json)));
    res.end();
    return;
  }
  if ('text' in reply) {
    res.writeHead(reply.status, { 'content-type': 'text/plain' });
    write(Buffer.from(reply.text));
    res.end();
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...idHeaders,
    ...reply.headers,
  });
  res.flushHeaders();
  const plan = reply.plan ?? {};
  for (const [index, frame] of reply.sse.entries()) {
    if (index === plan.dropAfter) {
      res.socket?.destroy();
      return;
    }
    if (index === plan.pauseAfter) await plan.resume;
    if (res.destroyed) return;
    const bytes = Buffer.from(formatSse(frame));
    const cut = plan.splitEvents === true ? awkwardCut(bytes) : bytes.length;
    for (const piece of cut < bytes.length
      ? [bytes.subarray(0, cut), bytes.subarray(cut)]
      : [bytes]) {
      write(piece);
      // A turn of the event loop between writes, so they travel as separate pieces.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
  res.end();
}

/** A cut inside the first multi-byte UTF-8 sequence, else in the middle. */
function awkwardCut(bytes: Uint8Array): number {
  const multi = bytes.findIndex((byte) => byte >= 0xc0);
  return multi === -1 ? Math.floor(bytes.length / 2) : multi + 1;
}
