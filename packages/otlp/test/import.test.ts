// OTLP/JSON that another tool wrote → a record: a hand-written trace in the shapes GenAI
// instrumentations emit (current and older attribute names, camelCase and snake_case fields,
// int64 as strings and as numbers, enum names, an HTTP parent span, a database span under a
// tool, an unrelated trace), sealed and verified.
import { readFileSync } from 'node:fs';
import { sealRecord } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { describe, expect, it } from 'vitest';
import { importOtlp } from '../src/index.js';
import { at } from './support/otlp-json.js';
import { GENERATED_AT, TEST_KEY } from './support/records.js';

const FOREIGN = readFileSync(new URL('./fixtures/foreign-genai.json', import.meta.url));
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('importOtlp on another tool’s GenAI trace', () => {
  const imported = importOtlp(FOREIGN);
  const events = imported.events;
  const byType = (type: string) => events.filter((e) => e['type'] === type);

  it('makes one record of the GenAI trace, leaving out the spans without GenAI attributes', () => {
    expect(imported.traceId).toBe(TRACE);
    expect(imported.source).toBe('genai');
    expect(imported.genaiSpanCount).toBe(5);
    expect(imported.ignoredSpanCount).toBe(2); // POST /v1/chat and SELECT shop.orders
    expect(events.map((e) => e['type'])).toEqual(['run', 'llm', 'tool', 'llm', 'tool', 'run']);
    expect(events.map((e) => e['seq'])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(imported.run).toMatchObject({
      run_id: `otlp_${TRACE}`,
      name: 'support-bot',
      status: 'success',
      started_at: '2026-06-16T08:53:20.050Z',
      ended_at: '2026-06-16T08:53:24.150Z',
      output: 'Order O-7731 shipped yesterday; it arrives Thursday.',
    });
  });

  it('reads model, provider, tokens, parameters and content of the model calls', () => {
    const [first, legacy] = byType('llm');
    expect(first?.['model']).toEqual({ provider: 'anthropic', model_id: 'claude-sonnet-4-5' });
    expect(first?.['usage']).toEqual({ input_tokens: 812, output_tokens: 57, total_tokens: 869 });
    expect(at(first, 'request', 'params')).toEqual({ max_tokens: 1024, temperature: 0.2 });
    expect(at(first, 'request', 'system')).toBe('You are the support assistant of an online shop.');
    expect(at(first, 'request', 'messages')).toEqual([
      { role: 'user', content: 'Where is my order O-7731?' },
    ]);
    expect(at(first, 'request', 'tools')).toEqual([
      expect.objectContaining({ name: 'lookup_order', description: 'Find an order by id' }),
    ]);
    expect(first?.['response']).toEqual({
      text: 'Let me look that up.',
      reasoning: null,
      finish_reason: 'tool_use',
      tool_calls: [
        { tool_call_id: 'toolu_01A', tool_name: 'lookup_order', input: { order_id: 'O-7731' } },
      ],
    });
    expect(first?.['metadata']).toMatchObject({
      response_id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      response_model: 'claude-sonnet-4-5-20250929',
      otel: { trace_id: TRACE, span_id: 'b2c3d4e5f6071829' },
    });
    expect(first?.['latency_ms']).toBe(1200);
    // The older names: gen_ai.system, prompt/completion tokens, flattened gen_ai.prompt.N.*.
    expect(legacy?.['model']).toEqual({ provider: 'anthropic', model_id: 'claude-sonnet-4-5' });
    expect(legacy?.['usage']).toEqual({ input_tokens: 901, output_tokens: 23, total_tokens: 924 });
    expect(at(legacy, 'request', 'messages')).toEqual([
      { role: 'user', content: 'Where is my order O-7731?' },
    ]);
    expect(at(legacy, 'response', 'text')).toBe(
      'Order O-7731 shipped yesterday; it arrives Thursday.',
    );
    expect(at(legacy, 'response', 'finish_reason')).toBe('end_turn');
  });

  it('reads tool names, call ids, arguments, results and failures', () => {
    const [lookup, notify] = byType('tool');
    expect(lookup).toMatchObject({
      tool_name: 'lookup_order',
      tool_call_id: 'toolu_01A',
      input: { order_id: 'O-7731' },
      output: { status: 'shipped', carrier: 'DHL', eta: '2026-06-18' },
      error: null,
    });
    expect(notify).toMatchObject({
      tool_name: 'notify_customer',
      tool_call_id: null,
      input: { channel: 'sms' },
      output: null,
      error: { name: 'TimeoutError', message: 'SMS gateway did not answer within 80 ms' },
    });
  });

  it('hangs every event under the agent span, which is the run', () => {
    const runSpan = events[0]?.['span_id'];
    expect(runSpan).toBe('a1b2c3d4e5f60718');
    for (const e of events.slice(1, -1)) expect(e['parent_span_id']).toBe(runSpan);
  });

  it('seals and signs into a record that verifies', () => {
    const record = sealRecord(
      { run: imported.run, events: imported.events },
      { generatedAt: GENERATED_AT, signer: { alg: 'Ed25519', privateKey: TEST_KEY.privatePem } },
    );
    const result = verifyJson(JSON.stringify(record), { pinned: [TEST_KEY.publicPem] });
    expect(result.errors).toEqual([]);
    expect(result.verdict).toBe('valid');
    expect(record.manifest.replay.entry_count).toBe(4);
  });

  it('reads JSON Lines (one request per line) and picks a trace by id', () => {
    const request = JSON.parse(FOREIGN.toString('utf8')) as { resourceSpans: unknown[] };
    const lines = request.resourceSpans
      .map((rs) => JSON.stringify({ resourceSpans: [rs] }))
      .join('\n');
    const fromLines = importOtlp(lines);
    expect(fromLines.events).toEqual(imported.events);
    expect(
      importOtlp(FOREIGN, { traceId: TRACE.toUpperCase(), runId: 'run_support_1' }).run['run_id'],
    ).toBe('run_support_1');
  });

  it('without an agent span, makes the run from the trace: its service name and time span', () => {
    const request: unknown = JSON.parse(FOREIGN.toString('utf8'));
    const scope = at(request, 'resourceSpans', 0, 'scopeSpans', 1) as { spans: unknown[] };
    scope.spans = scope.spans.filter((s) => at(s, 'name') !== 'invoke_agent support-bot');
    const r = importOtlp(JSON.stringify(request));
    expect(r.run['name']).toBe('support-bot');
    expect(r.events[0]?.['span_id']).toBe('run');
    expect(r.run['started_at']).toBe('2026-06-16T08:53:20.100Z');
    expect(r.run['output']).toBeNull();
  });
  it('reads content that older instrumentations put in span events', () => {
    const trace = {
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: '5b8aa5a2d2c872e8321cf37308d69df2',
                  spanId: '051581bf3cb55c13',
                  name: 'openai.chat',
                  kind: 3,
                  startTimeUnixNano: '1781600000000000000',
                  endTimeUnixNano: '1781600000500000000',
                  attributes: [
                    { key: 'gen_ai.system', value: { stringValue: 'openai' } },
                    { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
                  ],
                  events: [
                    {
                      name: 'gen_ai.content.prompt',
                      timeUnixNano: '1781600000000000000',
                      attributes: [
                        {
                          key: 'gen_ai.prompt',
                          value: { stringValue: '[{"role":"user","content":"Hi"}]' },
                        },
                      ],
                    },
                    {
                      name: 'gen_ai.content.completion',
                      timeUnixNano: '1781600000500000000',
                      attributes: [
                        {
                          key: 'gen_ai.completion',
                          value: {
                            stringValue:
                              '[{"role":"assistant","content":"Hello!","finish_reason":"stop"}]',
                          },
                        },
                      ],
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const llm = importOtlp(JSON.stringify(trace)).events.find((e) => e['type'] === 'llm');
    expect(at(llm, 'request', 'messages')).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(at(llm, 'response', 'text')).toBe('Hello!');
    expect(at(llm, 'response', 'finish_reason')).toBe('stop');
  });
});
