import { OpenAI } from 'openai';
import { describe, expect, it } from 'vitest';
import {
  collect,
  mockServerPerTest,
  PLAIN_API_KEY,
  rejectionOf,
} from '../../../test/mock-llm/lifecycle.js';
import {
  openaiError,
  RESPONSE_STREAM,
  RESPONSE_TEXT,
  RESPONSE_TOOL_CALL,
  RESPONSE_TOOL_STREAM,
} from '../../../test/mock-llm/openai.js';
import { recordToFile } from '../../../test/mock-llm/recording.js';
import { instrumentOpenAI } from './index.js';

const server = mockServerPerTest();
const client = () =>
  new OpenAI({ apiKey: PLAIN_API_KEY, baseURL: `${server().url}/v1`, maxRetries: 0 });
const MODEL = 'gpt-4.1-mini';

describe('instrumentOpenAI: responses.create', () => {
  it('records a response: instructions as system, input as messages, text, reasoning and usage', async () => {
    server().reply({ json: RESPONSE_TEXT });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(() =>
      openai.responses.create({
        model: MODEL,
        instructions: 'Answer briefly.',
        input: 'Grüß mich',
        reasoning: { effort: 'low' },
      }),
    );
    expect(written.output.output_text).toBe('Grüße aus Köln.');
    expect(written.verdict.verdict).toBe('valid');
    const event = written.llm[0]!;
    expect(event.model).toEqual({ provider: 'openai', model_id: MODEL });
    expect(event.request).toEqual({
      system: 'Answer briefly.',
      messages: [{ role: 'user', content: 'Grüß mich' }],
      tools: [],
      params: { reasoning: { effort: 'low' } },
    });
    expect(event.response).toEqual({
      text: 'Grüße aus Köln.',
      reasoning: 'The user wants a greeting.',
      finish_reason: 'completed',
      tool_calls: [],
      raw: RESPONSE_TEXT,
    });
    expect(event.usage).toEqual({ input_tokens: 14, output_tokens: 11, total_tokens: 25 });
    expect(event.metadata).toEqual({
      api: 'openai.responses',
      http_status: 200,
      request_id: 'req_mock_0001',
      http_headers: {
        'content-type': 'application/json',
        'request-id': 'req_mock_0001',
        'x-request-id': 'req_mock_0001',
      },
      response_id: 'resp_r1',
    });
  });

  it('records a function call', async () => {
    server().reply({ json: RESPONSE_TOOL_CALL });
    const openai = instrumentOpenAI(client());
    const tools = [
      {
        type: 'function' as const,
        name: 'lookup_order',
        parameters: { type: 'object' },
        strict: false,
      },
    ];
    const written = await recordToFile(() =>
      openai.responses.create({ model: MODEL, input: 'Where is O-7?', tools }),
    );
    const event = written.llm[0]!;
    expect(event.request.tools).toEqual(tools);
    expect(event.response?.tool_calls).toEqual([
      { tool_call_id: 'call_r2', tool_name: 'lookup_order', input: { order_id: 'O-7' } },
    ]);
  });

  it('streams typed events to the client exactly as without instrumentation, and records them', async () => {
    server().reply(
      { sse: RESPONSE_STREAM, plan: { splitEvents: true } },
      { sse: RESPONSE_STREAM, plan: { splitEvents: true } },
    );
    const params = {
      model: MODEL,
      instructions: 'Answer briefly.',
      input: 'Grüß mich',
      stream: true as const,
    };
    const plain = await collect(await client().responses.create(params));
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(async () => collect(await openai.responses.create(params)));

    expect(plain).toEqual(RESPONSE_STREAM.map((frame) => frame.data));
    expect(written.output).toEqual(plain);
    expect(written.verdict.verdict).toBe('valid');
    const event = written.llm[0]!;
    expect(event.response).toEqual({
      text: 'Grüße aus Köln.',
      reasoning: 'The user wants a greeting.',
      finish_reason: 'completed',
      tool_calls: [],
      chunks: RESPONSE_STREAM,
    });
    expect(event.response?.chunks?.[0]).toEqual({
      event: 'response.created',
      data: RESPONSE_STREAM[0]!.data,
    });
    expect(event.usage).toEqual({ input_tokens: 14, output_tokens: 11, total_tokens: 25 });
  });

  it('records a streamed function call, and the stream helper works on an instrumented client', async () => {
    server().reply({ sse: RESPONSE_TOOL_STREAM });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(async () => {
      const stream = openai.responses.stream({ model: MODEL, input: 'Where is O-7?' });
      return (await stream.finalResponse()).output;
    });
    // The helper adds its own `parsed_arguments` to what the server sent.
    expect(written.output).toMatchObject(RESPONSE_TOOL_CALL.output);
    expect(written.llm[0]!.response?.tool_calls).toEqual([
      { tool_call_id: 'call_r2', tool_name: 'lookup_order', input: { order_id: 'O-7' } },
    ]);
    expect(written.llm[0]!.response?.chunks).toEqual(RESPONSE_TOOL_STREAM);
  });

  it('records a server error', async () => {
    const body = openaiError(
      'The server had an error while processing your request.',
      'server_error',
    );
    server().reply({ json: body, status: 500 });
    const openai = instrumentOpenAI(client());
    const written = await recordToFile(() =>
      rejectionOf(openai.responses.create({ model: MODEL, input: 'Hi' })),
    );
    expect(written.output).toBeInstanceOf(OpenAI.InternalServerError);
    expect(written.llm[0]!.error).toEqual({
      name: 'server_error',
      message: 'The server had an error while processing your request.',
    });
    expect(written.llm[0]!.metadata).toMatchObject({ http_status: 500, error_body: body });
  });
});
