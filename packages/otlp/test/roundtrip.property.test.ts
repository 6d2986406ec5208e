// Property: for any record (llm, tool, reasoning and env events under any span tree, array
// order differing from seq order, any text), import(export(record)) gives back its events
// exactly — hence its digests — and export is deterministic; read from the GenAI attributes
// alone, export ∘ import reaches a fixed point after one round.
import { canonical } from '@runback/canonical';
import { sealRecord, type SealedRecord } from '@runback/sign';
import { verify, verifyJson } from '@runback/verify';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportOtlp, importOtlp } from '../src/index.js';
import { listAt } from './support/otlp-json.js';

const RUN_ID = 'run_prop';
const T0 = Date.UTC(2026, 5, 14, 9, 0, 0);
const iso = (ms: number) => new Date(T0 + ms).toISOString();

const text = fc.string({ maxLength: 12, unit: 'grapheme' });
const json: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 2 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

const llmBody = fc.record({
  model: fc.record({
    provider: fc.constantFrom('openai', 'anthropic'),
    model_id: fc.constantFrom('gpt-4o', 'claude-sonnet-4-5'),
  }),
  request: fc.record({
    system: fc.option(text, { nil: null }),
    messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: text }), {
      maxLength: 3,
    }),
    tools: fc.constant([]),
    params: fc.record({ temperature: fc.constantFrom(0, 0.5, 1) }),
  }),
  response: fc.record({
    text: text.filter((t) => t !== ''),
    reasoning: fc.constant(null),
    finish_reason: fc.constantFrom('stop', 'length'),
    tool_calls: fc.constant([]),
  }),
  usage: fc.record({ input_tokens: fc.nat(10_000), output_tokens: fc.nat(10_000) }),
});
const toolBody = fc.record({
  tool_name: fc.constantFrom('search', 'lookup', 'pay'),
  tool_call_id: fc.string({ minLength: 1, maxLength: 8 }),
  input: json,
  output: json.filter((v) => v !== null),
});

type Kind = 'llm' | 'tool' | 'reasoning' | 'env';
interface StepValue {
  readonly kind: Kind;
  readonly parent: number;
  readonly llm: Record<string, unknown>;
  readonly tool: Record<string, unknown>;
  readonly note: string;
  readonly failed: boolean;
}
const step: fc.Arbitrary<StepValue> = fc.record({
  kind: fc.constantFrom<Kind>('llm', 'tool', 'reasoning', 'env'),
  parent: fc.nat(),
  llm: llmBody,
  tool: toolBody,
  note: text,
  failed: fc.boolean(),
});

/** A sealed record from generated steps; each of `swaps` exchanges two neighbouring events. */
function recordOf(steps: readonly StepValue[], swaps: readonly number[]): SealedRecord {
  const events: Record<string, unknown>[] = [];
  const spans = ['r'];
  const base = (i: number, kind: string, parent: string) => ({
    schema_version: 1,
    run_id: RUN_ID,
    span_id: `${kind[0] ?? 'x'}${i}`,
    parent_span_id: parent,
    seq: i + 1,
    ts_start: iso(10 * i + 1),
    ts_end: iso(10 * i + 9),
    type: kind,
  });
  steps.forEach((s, i) => {
    const parent = spans[s.parent % spans.length] as string;
    const e = base(i, s.kind, parent);
    const error = s.failed ? { name: 'Error', message: s.note } : null;
    if (s.kind === 'llm') events.push({ ...e, ...s.llm, latency_ms: 8, error });
    else if (s.kind === 'tool') events.push({ ...e, ...s.tool, latency_ms: 8, error });
    else if (s.kind === 'reasoning')
      events.push({ ...e, ts_end: e.ts_start, text: s.note, label: 'step' });
    else events.push({ ...e, ts_end: null, kind: 'now', key: 'now', output: T0 + i });
    spans.push(e.span_id);
  });
  for (const k of swaps) {
    if (events.length < 2) break;
    const i = k % (events.length - 1);
    [events[i], events[i + 1]] = [
      events[i + 1] as Record<string, unknown>,
      events[i] as Record<string, unknown>,
    ];
  }
  const end = 10 * steps.length + 10;
  const start = {
    schema_version: 1,
    run_id: RUN_ID,
    span_id: 'r',
    parent_span_id: null,
    seq: 0,
    ts_start: iso(0),
    ts_end: iso(0),
    type: 'run',
    phase: 'start',
    name: 'prop',
    status: 'running',
    input: null,
  };
  const finish = {
    ...start,
    seq: steps.length + 1,
    ts_end: iso(end),
    phase: 'end',
    status: 'success',
    output: 'done',
    error: null,
  };
  return sealRecord(
    {
      run: { run_id: RUN_ID, name: 'prop', status: 'success', output: 'done' },
      events: [start, ...events, finish],
    },
    { generatedAt: iso(end) },
  );
}

const exportOf = (record: unknown) =>
  exportOtlp(record, { verification: verifyJson(JSON.stringify(record)) }).json;

function genaiOnly(jsonText: string): string {
  const request = JSON.parse(jsonText) as unknown;
  for (const rs of listAt(request, 'resourceSpans'))
    for (const ss of listAt(rs, 'scopeSpans'))
      for (const span of listAt(ss, 'spans')) {
        const s = span as { attributes: { key: string }[]; events: unknown[] };
        s.attributes = s.attributes.filter((a) => !a.key.startsWith('runback.'));
        s.events = [];
      }
  return JSON.stringify(request);
}

const seal = (imported: { run: object; events: readonly object[] }) =>
  sealRecord({ run: imported.run, events: imported.events }, { generatedAt: iso(0) });

describe('export and import, for any record', () => {
  it('import ∘ export is the identity on events (same digests), and export is deterministic', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        (steps, swaps) => {
          const record = recordOf(steps, swaps);
          expect(verify(record).integrity).toBe(true);
          const exported = exportOf(record);
          expect(exportOf(record)).toBe(exported);
          const imported = importOtlp(exported);
          expect(imported.differences).toEqual([]);
          const back = seal(imported);
          expect(back.manifest.content_digest).toBe(record.manifest.content_digest);
          expect(back.manifest.replay.cassette_digest).toBe(record.manifest.replay.cassette_digest);
          expect(canonical(back.events)).toBe(canonical(record.events));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('from GenAI attributes alone, export ∘ import is a fixed point after one round', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 6 }), (steps) => {
        const record = recordOf(steps, []);
        const once = seal(importOtlp(genaiOnly(exportOf(record))));
        expect(verify(once).integrity).toBe(true);
        const twice = seal(importOtlp(genaiOnly(exportOf(once))));
        expect(canonical(twice.events)).toBe(canonical(once.events));
        const llmCount = record.events.filter((e) => e['type'] === 'llm').length;
        expect(once.events.filter((e) => e['type'] === 'llm')).toHaveLength(llmCount);
      }),
      { numRuns: 40 },
    );
  });
});
