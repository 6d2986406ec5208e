// Shared test data for seal.test.ts (not part of the package's build: tsup
// bundles from index.ts only). A small run in the shapes of docs/spec.md §5.
import { createHash } from 'node:crypto';

export const RUN_ID = 'run_a3f1b90c';

/** A fresh copy of a six-event run: run start, llm, tool, env, reasoning, run end. */
export function sampleInput(): { run: Record<string, unknown>; events: Record<string, unknown>[] } {
  const base = (seq: number, span: string, type: string) => ({
    schema_version: 1,
    run_id: RUN_ID,
    span_id: span,
    parent_span_id: span === 'r' ? null : 'r',
    seq,
    ts_start: `2026-06-14T02:47:1${seq}.000Z`,
    ts_end: `2026-06-14T02:47:1${seq}.500Z`,
    type,
  });
  return {
    run: {
      run_id: RUN_ID,
      name: 'loan-approval-agent',
      status: 'success',
      started_at: '2026-06-14T02:47:10.000Z',
      ended_at: '2026-06-14T02:47:15.500Z',
    },
    events: [
      {
        ...base(0, 'r', 'run'),
        phase: 'start',
        name: 'loan-approval-agent',
        status: 'running',
        input: { applicant: 'a-17' },
        output: null,
        error: null,
        metadata: {},
      },
      {
        ...base(1, 'l1', 'llm'),
        model: { provider: 'openai', model_id: 'gpt-4o' },
        request: {
          system: 'You approve loans.',
          messages: [{ role: 'user', content: 'Approve applicant a-17?' }],
          tools: [],
          params: { temperature: 0 },
        },
        response: {
          text: 'Checking the credit score.',
          reasoning: null,
          finish_reason: 'tool_calls',
          tool_calls: [
            { tool_call_id: 'c1', tool_name: 'credit_score', input: { applicant: 'a-17' } },
          ],
        },
        usage: { input_tokens: 428, output_tokens: 184, total_tokens: 612 },
        latency_ms: 1400,
        error: null,
      },
      {
        ...base(2, 't1', 'tool'),
        tool_name: 'credit_score',
        tool_call_id: 'c1',
        input: { applicant: 'a-17' },
        output: { score: 712 },
        latency_ms: 30,
        error: null,
      },
      { ...base(3, 'e1', 'env'), kind: 'now', key: 'now', output: '2026-06-14T02:47:13.200Z' },
      { ...base(4, 'x1', 'reasoning'), text: 'Score above threshold.', label: 'decision' },
      {
        ...base(5, 'r', 'run'),
        phase: 'end',
        name: 'loan-approval-agent',
        status: 'success',
        input: { applicant: 'a-17' },
        output: { approved: true },
        error: null,
      },
    ],
  };
}

/**
 * A reference canonical form, written independently of @runback/canonical for the test data
 * above (plain JSON, no integer-like keys, no special numbers).
 */
export function refCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(refCanonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${refCanonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Lowercase hex SHA-256 through node:crypto. */
export function refSha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
