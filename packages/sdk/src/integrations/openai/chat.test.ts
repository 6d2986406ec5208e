import { OpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
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
  CHAT_TOOL_CALLS,
  CHAT_TOOL_STREAM,
  openaiError,
} from '../../../test/mock-llm/openai.js';
import { recordToFile } from '../../../test/mock-llm/recording.js';
import { instrumentOpenAI } from './index.js';

const server = mockServerPerTest();
const client = () =>
  new OpenAI({ apiKey: PLAIN_API_KEY, baseURL: `${server().url}/v1`, maxRetries: 0 });
const messages = [
  { role: 'system' as const, content: 'Answer in French.' },
  { role: 'user' as const, content: 'Hello?' },
];

describe('instrumentOpenAI: chat.completions.create', () => {
  it('records a completion as an llm event in a record that verifies valid', async () => {
    server().reply({ json: CHAT_TEXT });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(() =>
      openai.chat.completions.create({
        model: CHAT_MODEL,
        messages,
        temperature: 0.2,
        max_tokens: 64,
      }),
    );

    expect(written.output).toEqual(CHAT_TEXT);
    expect(written.verdict.verdict).toBe('valid');
    expect(written.llm).toHaveLength(1);
    const event = written.llm[0]!;
    expect(event.model).toEqual({ provider: 'openai', model_id: CHAT_MODEL });
    expect(event.request).toEqual({
      system: null,
      messages,
      tools: [],
      params: { temperature: 0.2, max_tokens: 64 },
    });
    expect(event.response).toEqual({
      text: 'Bonjour, où êtes-vous ? 🌍',
      reasoning: null,
      finish_reason: 'stop',
      tool_calls: [],
      raw: CHAT_TEXT,
    });
    expect(event.usage).toEqual({ input_tokens: 21, output_tokens: 9, total_tokens: 30 });
    expect(event.error).toBeNull();
    expect(event.metadata).toEqual({
      api: 'openai.chat.completions',
      http_status: 200,
      request_id: 'req_mock_0001',
      http_headers: {
        'content-type': 'application/json',
        'request-id': 'req_mock_0001',
        'x-request-id': 'req_mock_0001',
      },
      response_id: 'chatcmpl-Bx1',
      system_fingerprint: 'fp_mock01',
    });
    expect(event.parent_span_id).toBe('run');
  });

  it('records tool calls with their parsed arguments', async () => {
    server().reply({ json: CHAT_TOOL_CALLS });
    const openai = instrumentOpenAI(client());
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const written = await recordToFile(() =>
      openai.chat.completions.create({
        model: CHAT_MODEL,
        messages,
        tools,
        tool_choice: 'required',
      }),
    );
    const event = written.llm[0]!;
    expect(event.request.tools).toEqual(tools);
    expect(event.request.params).toEqual({ tool_choice: 'required' });
    expect(event.response?.tool_calls).toEqual([
      { tool_call_id: 'call_w1', tool_name: 'get_weather', input: { city: 'Paris' } },
      { tool_call_id: 'call_w2', tool_name: 'get_weather', input: '{"city":"Lyon"' },
    ]);
    expect(event.response?.finish_reason).toBe('tool_calls');
  });

  it('streams chunks to the client exactly as without instrumentation, and records them in order', async () => {
    server().reply(
      { sse: CHAT_STREAM, plan: { splitEvents: true } },
      { sse: CHAT_STREAM, plan: { splitEvents: true } },
    );
    const params = {
      model: CHAT_MODEL,
      messages,
      stream: true as const,
      stream_options: { include_usage: true },
    };
    const plain = await collect(await client().chat.completions.create(params));
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(async () =>
      collect(await openai.chat.completions.create(params)),
    );

    expect(plain).toEqual(CHAT_STREAM.slice(0, -1).map((frame) => frame.data));
    expect(written.output).toEqual(plain);
    expect(written.verdict.verdict).toBe('valid');
    const event = written.llm[0]!;
    expect(event.request.params).toEqual({ stream: true, stream_options: { include_usage: true } });
    expect(event.response).toEqual({
      text: 'Bonjour, où êtes-vous ? 🌍',
      reasoning: null,
      finish_reason: 'stop',
      tool_calls: [],
      chunks: CHAT_STREAM,
    });
    expect(event.usage).toEqual({ input_tokens: 21, output_tokens: 9, total_tokens: 30 });
    expect(event.metadata).toMatchObject({ http_status: 200, response_id: 'chatcmpl-Bx1' });
  });

  it('records a streamed tool call', async () => {
    server().reply({ sse: CHAT_TOOL_STREAM });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(async () =>
      collect(await openai.chat.completions.create({ model: CHAT_MODEL, messages, stream: true })),
    );
    expect(written.llm[0]!.response?.tool_calls).toEqual([
      { tool_call_id: 'call_s1', tool_name: 'get_weather', input: { city: 'Zürich' } },
    ]);
    expect(written.llm[0]!.response?.chunks).toEqual(CHAT_TOOL_STREAM);
  });

  it('records an HTTP error with the provider message and body; the client throws as usual', async () => {
    const body = openaiError(
      "Invalid value for 'temperature': expected at most 2.",
      'invalid_request_error',
      'invalid_value',
    );
    server().reply({ json: body, status: 400 });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(() =>
      rejectionOf(openai.chat.completions.create({ model: CHAT_MODEL, messages, temperature: 9 })),
    );
    expect(written.output).toBeInstanceOf(OpenAI.BadRequestError);
    expect(written.verdict.verdict).toBe('valid');
    const event = written.llm[0]!;
    expect(event.response).toBeNull();
    expect(event.usage).toBeNull();
    expect(event.error).toEqual({
      name: 'invalid_request_error',
      message: "Invalid value for 'temperature': expected at most 2.",
    });
    expect(event.metadata).toEqual({
      api: 'openai.chat.completions',
      http_status: 400,
      request_id: 'req_mock_0001',
      http_headers: {
        'content-type': 'application/json',
        'request-id': 'req_mock_0001',
        'x-request-id': 'req_mock_0001',
      },
      error_body: body,
    });
  });

  it('records a consumer that stops reading as a cancelled call with what had arrived', async () => {
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    server().reply({ sse: CHAT_STREAM, plan: { pauseAfter: 3, resume: paused } });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(async () => {
      const stream = await openai.chat.completions.create({
        model: CHAT_MODEL,
        messages,
        stream: true,
      });
      const seen: unknown[] = [];
      for await (const chunk of stream) {
        seen.push(chunk);
        if (seen.length === 2) break;
      }
      return seen;
    });
    resume();
    const event = written.llm[0]!;
    expect(event.response).toBeNull();
    expect(event.error).toEqual({
      name: 'PROVIDER_STREAM_CANCELLED',
      message: expect.stringMatching(
        /^expected the stream to be read to its end, got cancelled by the consumer after [23] events$/,
      ),
    });
    const partial = event.metadata?.['partial'] as {
      response: { text: string; chunks: unknown[] };
    };
    expect(CHAT_STREAM.slice(0, partial.response.chunks.length)).toEqual(partial.response.chunks);
    expect(partial.response.text.startsWith('Bonjour, ')).toBe(true);
    expect(written.verdict.verdict).toBe('valid');
  });

  it('records a stream the connection drops midway as failed, with the events that arrived', async () => {
    server().reply({ sse: CHAT_STREAM, plan: { dropAfter: 3 } });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(async () =>
      rejectionOf(
        collect(
          await openai.chat.completions.create({ model: CHAT_MODEL, messages, stream: true }),
        ),
      ),
    );
    expect(written.output).toBeInstanceOf(Error);
    const event = written.llm[0]!;
    expect(event.response).toBeNull();
    expect(event.error?.name).toBe('TypeError');
    expect(event.metadata?.['partial']).toEqual({
      response: {
        text: 'Bonjour, où êtes',
        reasoning: null,
        finish_reason: null,
        tool_calls: [],
        chunks: CHAT_STREAM.slice(0, 3),
      },
      usage: null,
    });
  });

  it('records an error chunk sent mid-stream as the failure, though the client then cancels the body', async () => {
    const failure = openaiError(
      'The server had an error while processing your request.',
      'server_error',
    );
    server().reply({ sse: [...CHAT_STREAM.slice(0, 2), { data: failure }] });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(async () =>
      rejectionOf(
        collect(
          await openai.chat.completions.create({ model: CHAT_MODEL, messages, stream: true }),
        ),
      ),
    );
    expect(written.output).toBeInstanceOf(OpenAI.APIError);
    const event = written.llm[0]!;
    expect(event.error).toEqual({
      name: 'server_error',
      message: 'The server had an error while processing your request.',
    });
    expect(event.metadata?.['partial']).toMatchObject({
      response: { text: 'Bonjour, ', chunks: [...CHAT_STREAM.slice(0, 2), { data: failure }] },
    });
  });
});
