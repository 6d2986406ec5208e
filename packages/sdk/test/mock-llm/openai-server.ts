// The mock LLM server (server.ts) as an OpenAI chat-completions endpoint for the real
// @ai-sdk/openai provider: `baseURL` ends in /v1, a streamed reply is a list of `data:` events
// followed by `data: [DONE]`, request bodies are parsed, and answers carry no request ids and
// no Date header, so two answers to the same request are byte for byte the same.
import { startMockServer, type MockReply as ServerReply } from './server.js';

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

function asServerReply(reply: MockReply): ServerReply {
  if (!('sse' in reply)) return { json: reply.json, status: reply.status ?? 200 };
  return {
    sse: [...reply.sse.map((data) => ({ data })), { data: '[DONE]' }],
    plan: {
      ...(reply.pauseAfter === undefined ? {} : { pauseAfter: reply.pauseAfter }),
      ...(reply.resume === undefined ? {} : { resume: reply.resume }),
    },
  };
}

/** Starts the mock server on 127.0.0.1 and a free port. */
export async function startMockOpenAI(): Promise<MockOpenAI> {
  const server = await startMockServer({
    headers: 'none',
    whenEmpty: {
      status: 500,
      json: { error: { message: 'expected a queued reply, got none', type: 'test_error' } },
    },
  });
  return {
    baseURL: `${server.url}/v1`,
    get requests(): readonly SeenRequest[] {
      return server.requests.map((request) => ({
        method: request.method,
        path: request.path,
        authorization: request.headers.authorization,
        body: request.body === '' ? {} : (JSON.parse(request.body) as Record<string, unknown>),
      }));
    },
    reply: (...replies) => server.reply(...replies.map(asServerReply)),
    close: () => server.close(),
  };
}
