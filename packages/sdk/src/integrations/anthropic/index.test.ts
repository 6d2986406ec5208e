import { Anthropic } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  anthropicError,
  CLAUDE_MODEL,
  MESSAGE_OVERLOADED_STREAM,
  MESSAGE_STREAM,
  MESSAGE_TEXT,
  MESSAGE_TOOL_USE,
} from '../../../test/mock-llm/anthropic.js';
import {
  collect,
  mockServerPerTest,
  PLAIN_API_KEY,
  rejectionOf,
} from '../../../test/mock-llm/lifecycle.js';
import { recordToFile } from '../../../test/mock-llm/recording.js';
import { anthropicMessages } from '../../hooks/providers/anthropic-messages.js';
import { startRun } from '../../recorder/recorder.js';
import { instrumentAnthropic } from './index.js';

const server = mockServerPerTest();
const client = () => new Anthropic({ apiKey: PLAIN_API_KEY, baseURL: server().url, maxRetries: 0 });
const system = 'You are terse.';
const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
const tools = [
  {
    name: 'get_weather',
    description: 'Current weather',
    input_schema: { type: 'object' as const, properties: {} },
  },
];

describe('instrumentAnthropic', () => {
  it('records a message in a record that verifies valid; the API key is never written', async () => {
    server().reply({ json: MESSAGE_TEXT });
    const anthropic = instrumentAnthropic(client());
    const written = await recordToFile(
      () =>
        anthropic.messages.create({
          model: CLAUDE_MODEL,
          system,
          messages,
          max_tokens: 256,
          stop_sequences: ['END'],
        }),
      { redact: false },
    );
    expect(written.output).toEqual(MESSAGE_TEXT);
    expect(written.verdict.verdict).toBe('valid');
    // This client version sends the key as a bearer token; older ones as x-api-key.
    expect(JSON.stringify(server().requests[0]!.headers)).toContain(PLAIN_API_KEY);
    expect(written.text).not.toContain(PLAIN_API_KEY);
    const event = written.llm[0]!;
    expect(event.model).toEqual({ provider: 'anthropic', model_id: CLAUDE_MODEL });
    expect(event.request).toEqual({
      system,
      messages,
      tools: [],
      params: { max_tokens: 256, stop_sequences: ['END'] },
    });
    expect(event.response).toEqual({
      text: 'Guten Tag — ça va? 🙂',
      reasoning: null,
      finish_reason: 'end_turn',
      tool_calls: [],
      raw: MESSAGE_TEXT,
    });
    expect(event.usage).toEqual({ input_tokens: 120, output_tokens: 12, total_tokens: 132 });
    expect(event.metadata).toEqual({
      api: 'anthropic.messages',
      http_status: 200,
      request_id: 'req_mock_0001',
      http_headers: {
        'content-type': 'application/json',
        'request-id': 'req_mock_0001',
        'x-request-id': 'req_mock_0001',
      },
      response_id: 'msg_01Text',
    });
  });

  it('records thinking and tool_use blocks', async () => {
    server().reply({ json: MESSAGE_TOOL_USE });
    const anthropic = instrumentAnthropic(client());
    const written = await recordToFile(() =>
      anthropic.messages.create({
        model: CLAUDE_MODEL,
        messages,
        tools,
        max_tokens: 2048,
        tool_choice: { type: 'auto' },
      }),
    );
    const event = written.llm[0]!;
    expect(event.request.tools).toEqual(tools);
    expect(event.request.params).toEqual({ max_tokens: 2048, tool_choice: { type: 'auto' } });
    // What the codec reads from this body (checked in its own tests), and the body itself.
    expect(event.response).toEqual({
      ...anthropicMessages.readResponse(MESSAGE_TOOL_USE).response,
      raw: MESSAGE_TOOL_USE,
    });
    expect(event.response?.tool_calls).toHaveLength(1);
  });

  it('streams events to the client exactly as without instrumentation, and records them in order', async () => {
    server().reply(
      { sse: MESSAGE_STREAM, plan: { splitEvents: true } },
      { sse: MESSAGE_STREAM, plan: { splitEvents: true } },
    );
    const params = { model: CLAUDE_MODEL, messages, tools, max_tokens: 256, stream: true as const };
    const plain = await collect(await client().messages.create(params));
    const anthropic = instrumentAnthropic(client());
    const written = await recordToFile(async () =>
      collect(await anthropic.messages.create(params)),
    );

    // The client skips `ping`; everything else arrives as sent.
    expect(plain).toEqual(
      MESSAGE_STREAM.map((frame) => frame.data).filter(
        (data) => (data as { type: string }).type !== 'ping',
      ),
    );
    expect(written.output).toEqual(plain);
    expect(written.verdict.verdict).toBe('valid');
    const event = written.llm[0]!;
    expect(event.request.params).toEqual({ max_tokens: 256, stream: true });
    expect(event.response).toEqual({
      text: 'Je vérifie la météo…',
      reasoning: null,
      finish_reason: 'tool_use',
      tool_calls: [
        { tool_call_id: 'toolu_01S', tool_name: 'get_weather', input: { city: 'Paris' } },
      ],
      chunks: MESSAGE_STREAM,
    });
    expect(event.usage).toEqual({ input_tokens: 25, output_tokens: 33, total_tokens: 58 });
    expect(event.metadata).toMatchObject({ http_status: 200, response_id: 'msg_01Stream' });
  });

  it('records the messages.stream() helper, which goes through the same fetch', async () => {
    server().reply({ sse: MESSAGE_STREAM });
    const anthropic = instrumentAnthropic(client());
    const written = await recordToFile(async () => {
      const stream = anthropic.messages.stream({
        model: CLAUDE_MODEL,
        messages,
        tools,
        max_tokens: 256,
      });
      return stream.finalMessage();
    });
    expect(written.output.content).toEqual([
      { type: 'text', text: 'Je vérifie la météo…' },
      { type: 'tool_use', id: 'toolu_01S', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(written.llm).toHaveLength(1);
    expect(written.llm[0]!.response?.chunks).toEqual(MESSAGE_STREAM);
  });

  it('records an HTTP error with the provider error type and body', async () => {
    const body = anthropicError('invalid_request_error', 'max_tokens: Field required');
    server().reply({ json: body, status: 400 });
    const anthropic = instrumentAnthropic(client());
    const written = await recordToFile(() =>
      rejectionOf(anthropic.messages.create({ model: CLAUDE_MODEL, messages, max_tokens: 0 })),
    );
    expect(written.output).toBeInstanceOf(Anthropic.BadRequestError);
    const event = written.llm[0]!;
    expect(event.response).toBeNull();
    expect(event.error).toEqual({
      name: 'invalid_request_error',
      message: 'max_tokens: Field required',
    });
    expect(event.metadata).toEqual({
      api: 'anthropic.messages',
      http_status: 400,
      request_id: 'req_mock_0001',
      http_headers: {
        'content-type': 'application/json',
        'request-id': 'req_mock_0001',
        'x-request-id': 'req_mock_0001',
      },
      error_body: body,
    });
    expect(written.verdict.verdict).toBe('valid');
  });

  it('records an in-band stream error as a failed call with the partial message', async () => {
    server().reply({ sse: MESSAGE_OVERLOADED_STREAM });
    const anthropic = instrumentAnthropic(client());
    const written = await recordToFile(async () =>
      rejectionOf(
        collect(
          await anthropic.messages.create({
            model: CLAUDE_MODEL,
            messages,
            max_tokens: 256,
            stream: true,
          }),
        ),
      ),
    );
    expect(written.output).toBeInstanceOf(Anthropic.APIError);
    const event = written.llm[0]!;
    expect(event.response).toBeNull();
    expect(event.error).toEqual({ name: 'overloaded_error', message: 'Overloaded' });
    expect(event.metadata?.['partial']).toMatchObject({
      response: { text: 'Half an ans', chunks: MESSAGE_OVERLOADED_STREAM },
    });
  });

  it('records nothing outside a run, and instrumenting twice changes nothing', async () => {
    server().reply({ json: MESSAGE_TEXT });
    const anthropic = instrumentAnthropic(instrumentAnthropic(client()));
    const run = startRun({ name: 'idle' });
    const outside = await anthropic.messages.create({
      model: CLAUDE_MODEL,
      messages,
      max_tokens: 16,
    });
    const result = await run.end();
    expect(outside).toEqual(MESSAGE_TEXT);
    expect(result.record?.events).toHaveLength(2);
  });
});
