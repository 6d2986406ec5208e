import { sealRecord } from '@runback/sign';
import { verify } from '@runback/verify';
import { describe, expect, it } from 'vitest';
import { GENERATED_AT, realisticRun } from '../../test/support.js';
import { summarizeRecord } from './summarize.js';

const summarize = (record: unknown) => summarizeRecord(record, verify(record));

describe('summarizeRecord', () => {
  it('sums tokens per provider/model and overall; a missing total is input + output', () => {
    const input = realisticRun();
    const llm = input.events[1] as Record<string, unknown>;
    input.events.splice(
      2,
      0,
      { ...llm, seq: 10, span_id: 'l2', usage: { input_tokens: 100, output_tokens: 50 } },
      {
        ...llm,
        seq: 11,
        span_id: 'l3',
        model: { provider: 'anthropic', model_id: 'claude' },
        usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
        response: null,
        error: { name: 'RateLimit', message: '429' },
      },
    );
    const s = summarize(sealRecord(input, { generatedAt: GENERATED_AT }));
    expect(s.llm).toEqual({
      calls: 3,
      input_tokens: 535,
      output_tokens: 237,
      total_tokens: 772,
      models: [
        {
          model: 'openai/gpt-4o',
          calls: 2,
          errors: 0,
          input_tokens: 528,
          output_tokens: 234,
          total_tokens: 762,
        },
        {
          model: 'anthropic/claude',
          calls: 1,
          errors: 1,
          input_tokens: 7,
          output_tokens: 3,
          total_tokens: 10,
        },
      ],
    });
    expect(s.errors.map((e) => [e.type, e.subject, e.message])).toContainEqual([
      'llm',
      'anthropic/claude',
      '429',
    ]);
  });

  it('falls back to the run events when the summary omits name, status and times', () => {
    const input = realisticRun();
    input.run = { run_id: input.run['run_id'] };
    const s = summarize(sealRecord(input, { generatedAt: GENERATED_AT }));
    expect(s.run).toEqual({
      name: 'loan-approval-agent',
      run_id: 'run_a3f1b90c',
      status: 'error',
      started_at: '2026-06-14T02:47:11.000Z',
      ended_at: '2026-06-14T02:47:13.950Z',
      duration_ms: 2950,
      // From the run start and end events, too.
      input: { applicant: 'A-1029' },
      output: null,
      error: { name: 'TimeoutError', message: 'bank_statements failed' },
    });
  });

  it('never throws on malformed records and counts what it can', () => {
    for (const record of [
      null,
      42,
      'x',
      [],
      {},
      { events: 'no' },
      { events: [null, 1, { type: 'tool' }, { type: 'llm', usage: { input_tokens: 'many' } }] },
    ]) {
      expect(() => summarize(record)).not.toThrow();
    }
    const s = summarize({
      events: [
        null,
        { type: 'tool' },
        { type: 'llm', usage: { input_tokens: -5, output_tokens: 1e308 } },
        { type: 'env' },
      ],
    });
    expect(s.event_count).toBe(4);
    expect(s.events_by_type).toEqual({ '(no type)': 1, env: 1, llm: 1, tool: 1 });
    expect(s.tools).toEqual([{ name: '(unnamed)', calls: 1, errors: 0 }]);
    expect(s.llm.models[0]).toMatchObject({
      model: '(unknown model)',
      input_tokens: 0,
      output_tokens: 1e308,
    });
    expect(s.env).toEqual({ '(no kind)': 1 });
    expect(s.run.run_id).toBeNull();
    expect(s.chain.verdict).toBe('invalid');
  });

  it('treats a "__proto__" tool name or event type as data', () => {
    const record = JSON.parse(
      '{"events": [{"type": "__proto__"}, {"type": "tool", "tool_name": "__proto__", "error": "boom"}]}',
    ) as unknown;
    const s = summarize(record);
    expect(Object.entries(s.events_by_type)).toContainEqual(['__proto__', 1]);
    expect(s.tools).toEqual([{ name: '__proto__', calls: 1, errors: 1 }]);
    expect(s.errors[0]?.message).toBe('boom');
  });
});
