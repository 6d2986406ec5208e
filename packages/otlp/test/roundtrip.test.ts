// export → import → export: a runback export is read back to the very same record (same
// digests; with the same key, the same bytes again), and read from its GenAI attributes alone
// it reaches a fixed point after one round and keeps the model, tokens, tools and messages.
import { canonical } from '@runback/canonical';
import { sealRecord } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { describe, expect, it } from 'vitest';
import { exportOtlp, importOtlp } from '../src/index.js';
import { at, listAt } from './support/otlp-json.js';
import {
  EXAMPLE_PATH,
  FAILURE_PATH,
  GENERATED_AT,
  readRecord,
  resealed,
  TEST_KEY,
  verified,
} from './support/records.js';

function exportOf(record: unknown): string {
  return exportOtlp(record, { verification: verified(record) }).json;
}

function importAndSeal(json: string) {
  const imported = importOtlp(json);
  const record = sealRecord(
    { run: imported.run, events: imported.events },
    { generatedAt: GENERATED_AT, signer: { alg: 'Ed25519', privateKey: TEST_KEY.privatePem } },
  );
  return { imported, record };
}

/** The export with every runback.* attribute and span event removed: GenAI attributes only. */
function genaiOnly(json: string): string {
  const request = JSON.parse(json) as {
    resourceSpans: {
      scopeSpans: { spans: { attributes: { key: string }[]; events?: unknown[] }[] }[];
    }[];
  };
  for (const rs of request.resourceSpans)
    for (const ss of rs.scopeSpans)
      for (const span of ss.spans) {
        span.attributes = span.attributes.filter((a) => !a.key.startsWith('runback.'));
        span.events = [];
      }
  return JSON.stringify(request);
}

describe('export → import → export', () => {
  it('reads a runback export back to the same events, digests and bytes', () => {
    for (const path of [EXAMPLE_PATH, FAILURE_PATH]) {
      const original = resealed(readRecord(path));
      expect(verified(original).verdict).toBe('valid');
      const first = exportOf(original);
      const { imported, record } = importAndSeal(first);
      expect(imported.source).toBe('runback');
      expect(imported.differences).toEqual([]);
      expect(imported.exported?.contentDigest).toBe(original.manifest.content_digest);
      expect(record.manifest.content_digest).toBe(original.manifest.content_digest);
      expect(record.manifest.replay.cassette_digest).toBe(original.manifest.replay.cassette_digest);
      expect(canonical(record)).toBe(canonical(original));
      expect(exportOf(record)).toBe(first);
    }
  });

  it('keeps the record array order (the chain order) when it differs from seq order', () => {
    const base = readRecord(EXAMPLE_PATH);
    // Two calls that overlapped: the later-started one finished first (docs/spec.md §7).
    const events = base.events.map((e) => ({ ...e }));
    const [a, b] = [events[4], events[5]] as Record<string, unknown>[];
    events[4] = b as (typeof events)[number];
    events[5] = a as (typeof events)[number];
    const original = resealed({ run: base.run, events });
    const { record } = importAndSeal(exportOf(original));
    expect(record.manifest.content_digest).toBe(original.manifest.content_digest);
  });

  it('from GenAI attributes alone: a fixed point after one round, with model, tokens and tools kept', () => {
    const original = resealed(readRecord(EXAMPLE_PATH));
    const { imported, record: once } = importAndSeal(genaiOnly(exportOf(original)));
    expect(imported.source).toBe('genai');
    expect(verifyJson(JSON.stringify(once), { pinned: [TEST_KEY.publicPem] }).verdict).toBe(
      'valid',
    );
    const { record: twice } = importAndSeal(genaiOnly(exportOf(once)));
    expect(canonical(twice.events)).toBe(canonical(once.events));
    expect(genaiOnly(exportOf(twice))).toBe(genaiOnly(exportOf(once)));

    const pick = (events: readonly Record<string, unknown>[]) => ({
      llm: events
        .filter((e) => e['type'] === 'llm')
        .map((e) => ({
          model: e['model'],
          usage: [at(e, 'usage', 'input_tokens'), at(e, 'usage', 'output_tokens')],
          text: at(e, 'response', 'text') || null,
          finish: at(e, 'response', 'finish_reason'),
          calls: listAt(e, 'response', 'tool_calls').map((c) => [
            at(c, 'tool_call_id'),
            at(c, 'tool_name'),
            at(c, 'input'),
          ]),
          system: at(e, 'request', 'system'),
          temperature: at(e, 'request', 'params', 'temperature'),
        })),
      tools: events
        .filter((e) => e['type'] === 'tool')
        .map((e) => [e['tool_name'], e['tool_call_id'], e['input'], e['output']]),
    });
    expect(pick(once.events)).toEqual(pick(original.events));
    expect(once.run['name']).toBe('loan-approval-agent');
    // Each event hangs under the span it hung under: the tool t1 under the model call l1.
    const l1 = once.events.find((e) => e['type'] === 'llm');
    const t1 = once.events.find((e) => e['type'] === 'tool');
    expect(t1?.['parent_span_id']).toBe(l1?.['span_id']);
  });
  it('reports GenAI attributes edited after export (the record keeps the exported events)', () => {
    const original = resealed(readRecord(EXAMPLE_PATH));
    const request = JSON.parse(exportOf(original)) as unknown;
    const chat = listAt(at(request, 'resourceSpans', 0, 'scopeSpans', 0, 'spans', 1), 'attributes');
    const tokens = chat.find((kv) => at(kv, 'key') === 'gen_ai.usage.input_tokens') as {
      value: unknown;
    };
    tokens.value = { intValue: '9' };
    chat.push({ key: 'gen_ai.request.top_k', value: { intValue: 3 } });
    const { imported, record } = importAndSeal(JSON.stringify(request));
    expect(imported.differences).toEqual([
      expect.stringMatching(
        /^span [0-9a-f]{16}: gen_ai\.usage\.input_tokens is 9, its runback\.event says 428$/,
      ),
      expect.stringMatching(/: gen_ai\.request\.top_k is 3, its runback\.event has none$/),
    ]);
    expect(record.manifest.content_digest).toBe(original.manifest.content_digest);
  });
});
