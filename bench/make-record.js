// Deterministic, realistic agent records for the benchmarks: a loop of model calls, tool calls
// and environment reads, as an agent that triages support cases would produce.
import { generateEd25519KeyPair, sealRecord } from '@runback/sign';

const WORDS =
  'refund order customer invoice shipping delayed damaged policy account charge duplicate approve escalate review priority warehouse carrier tracking'.split(
    ' ',
  );

/** A small deterministic PRNG (mulberry32), so every run benchmarks the same bytes. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand, words) {
  let s = '';
  for (let i = 0; i < words; i++) s += (i ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)];
  return s;
}

/** Unsealed {run, events} with `count` events (about 450 bytes each once sealed). */
export function makeRunInput(count, runId = 'run_bench0001') {
  const rand = prng(42);
  const t0 = Date.UTC(2026, 5, 14, 2, 47, 11);
  const ts = (ms) => new Date(t0 + ms).toISOString();
  const base = (seq, type, span, parent) => ({
    schema_version: 1,
    run_id: runId,
    span_id: span,
    parent_span_id: parent,
    seq,
    ts_start: ts(seq * 10),
    ts_end: ts(seq * 10 + 7),
    type,
  });
  const events = [
    {
      ...base(0, 'run', 'r', null),
      phase: 'start',
      name: 'triage-agent',
      status: 'running',
      input: { case_id: 'C-1' },
    },
  ];
  for (let seq = 1; seq < count - 1; seq++) {
    const pick = seq % 4;
    if (pick === 1) {
      events.push({
        ...base(seq, 'llm', `l${seq}`, 'r'),
        model: { provider: 'openai', model_id: 'gpt-4o-mini' },
        request: {
          system: 'Triage support cases.',
          messages: [{ role: 'user', content: sentence(rand, 12) }],
          params: { temperature: 0 },
        },
        response: { text: sentence(rand, 9), finish_reason: 'stop', tool_calls: [] },
        usage: {
          input_tokens: 200 + Math.floor(rand() * 100),
          output_tokens: 40,
          total_tokens: 260,
        },
        latency_ms: Math.floor(rand() * 900),
        error: null,
      });
    } else if (pick === 2) {
      events.push({
        ...base(seq, 'tool', `t${seq}`, 'r'),
        tool_name: 'lookup_order',
        tool_call_id: `call_${seq}`,
        input: { order_id: `O-${Math.floor(rand() * 1e6)}` },
        output: {
          status: sentence(rand, 2),
          total: Math.round(rand() * 50000) / 100,
          items: [1, 2, 3].map((n) => ({ sku: `S${n}`, qty: n })),
        },
        latency_ms: Math.floor(rand() * 90),
        error: null,
      });
    } else if (pick === 3) {
      events.push({
        ...base(seq, 'env', `e${seq}`, 'r'),
        kind: 'now',
        key: 'now',
        output: t0 + seq * 10,
      });
    } else {
      events.push({
        ...base(seq, 'reasoning', `x${seq}`, 'r'),
        text: sentence(rand, 10),
        label: 'plan',
      });
    }
  }
  const last = count - 1;
  const output = { routed_to: 'billing', priority: 'high' };
  events.push({
    ...base(last, 'run', 'r', null),
    ts_start: ts(0),
    phase: 'end',
    name: 'triage-agent',
    status: 'success',
    output,
    error: null,
  });
  const run = {
    run_id: runId,
    name: 'triage-agent',
    status: 'success',
    started_at: ts(0),
    ended_at: events[last].ts_end,
    output,
  };
  return { run, events };
}

/** A sealed record signed by a fixed key; returns the record and the signer's public key. */
export function makeSignedRecord(count) {
  const keys = generateEd25519KeyPair(new Uint8Array(32).fill(7));
  const record = sealRecord(makeRunInput(count), {
    generatedAt: '2026-06-14T02:47:14.000Z',
    signer: { alg: 'Ed25519', privateKey: keys.privateKey },
  });
  return { record, publicKey: keys.publicKey };
}

/**
 * `record` (sealed from `input`) with every event's members in the order the program wrote them
 * and _hash last, as plain JSON.stringify writes a record (other producers, the published
 * implementation); the digests are the same.
 */
export function inWrittenOrder(record, input) {
  return {
    $schema: record.$schema,
    manifest: record.manifest,
    run: record.run,
    events: record.events.map((e, i) => ({ ...input.events[i], _hash: e._hash })),
  };
}
