// Records for the browser tests, sealed with @runback/sign the way any producer may seal
// them: a refund agent's run (model calls, parallel tool calls, a clock read, a failed
// tool), a tampered copy, an unsigned one, and large generated runs.
import {
  generateEd25519KeyPair,
  publicKeyToPem,
  sealRecord,
  type SealedRecord,
} from '@runback/sign';

const RUN_ID = 'run_web0001';
export const SIGNER = generateEd25519KeyPair(new Uint8Array(32).fill(7));
export const SIGNER_PEM = publicKeyToPem(SIGNER.publicKey);
export const OTHER = generateEd25519KeyPair(new Uint8Array(32).fill(9));
export const OTHER_PEM = publicKeyToPem(OTHER.publicKey);

const t = (ms: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, 0, ms)).toISOString();
const base = (seq: number, span: string, parent: string | null, start: number, end: number) => ({
  schema_version: 1,
  run_id: RUN_ID,
  span_id: span,
  parent_span_id: parent,
  seq,
  ts_start: t(start),
  ts_end: t(end),
});

export interface RunOptions {
  readonly amount?: number;
  readonly answer?: string;
  /** Extra llm/tool pairs to make the record larger. */
  readonly filler?: number;
  readonly fillerText?: number;
}

/** The refund agent's events. */
export function refundEvents(options: RunOptions = {}): object[] {
  const amount = options.amount ?? 12.5;
  const answer = options.answer ?? 'Refund approved: the order total is 12.50 EUR.';
  const events: object[] = [];
  let seq = 0;
  events.push({
    ...base(seq++, 'r', null, 0, 0),
    type: 'run',
    phase: 'start',
    name: 'refund-check',
    status: 'running',
    input: { order: 'O-7' },
  });
  events.push({
    ...base(seq++, 'l1', 'r', 5, 45),
    type: 'llm',
    model: { provider: 'openai', model_id: 'gpt-4o-mini' },
    request: {
      system: 'You decide refunds. Use the tools.',
      messages: [{ role: 'user', content: 'Can order O-7 be refunded?' }],
      tools: [{ name: 'get_order' }, { name: 'get_policy' }],
      params: { temperature: 0 },
    },
    response: {
      text: 'Let me look up the order and the policy.',
      reasoning: null,
      finish_reason: 'tool_calls',
      tool_calls: [
        { tool_call_id: 'c1', tool_name: 'get_order', input: { order: 'O-7' } },
        { tool_call_id: 'c2', tool_name: 'get_policy', input: { region: 'EU' } },
      ],
    },
    usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150 },
    latency_ms: 40,
    error: null,
  });
  // Two tool calls in parallel: seq in start order, array in completion order (spec §7).
  const orderSeq = seq++;
  const policySeq = seq++;
  events.push({
    ...base(policySeq, 't2', 'r', 47, 60),
    type: 'tool',
    tool_name: 'get_policy',
    tool_call_id: 'c2',
    input: { region: 'EU' },
    output: { days: 30 },
    latency_ms: 13,
    error: null,
  });
  events.push({
    ...base(orderSeq, 't1', 'r', 46, 80),
    type: 'tool',
    tool_name: 'get_order',
    tool_call_id: 'c1',
    input: { order: 'O-7' },
    output: { total: amount, currency: 'EUR' },
    latency_ms: 34,
    error: null,
  });
  events.push({
    ...base(seq++, 'e1', 'r', 81, 81),
    type: 'env',
    kind: 'now',
    key: 'now',
    output: 1767607200081,
  });
  events.push({
    ...base(seq++, 't3', 'r', 82, 90),
    type: 'tool',
    tool_name: 'notify_customer',
    tool_call_id: 'c3',
    input: { order: 'O-7' },
    output: null,
    latency_ms: 8,
    error: { name: 'TimeoutError', message: 'mail gateway did not answer in 5 s' },
  });
  for (let i = 0; i < (options.filler ?? 0); i++) {
    const at = 100 + i * 2;
    events.push({
      ...base(seq++, `f${i}`, 'r', at, at + 1),
      type: 'llm',
      model: { provider: 'anthropic', model_id: 'claude-haiku' },
      request: {
        system: null,
        messages: [{ role: 'user', content: `step ${i} ${'x'.repeat(options.fillerText ?? 0)}` }],
        tools: [],
        params: {},
      },
      response: { text: `ok ${i}`, reasoning: null, finish_reason: 'stop', tool_calls: [] },
      usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
      latency_ms: 1,
      error: null,
    });
  }
  const end = 100 + (options.filler ?? 0) * 2;
  events.push({
    ...base(seq++, 'l2', 'r', end, end + 30),
    type: 'llm',
    model: { provider: 'openai', model_id: 'gpt-4o-mini' },
    request: {
      system: 'You decide refunds. Use the tools.',
      messages: [
        { role: 'user', content: 'Can order O-7 be refunded?' },
        { role: 'tool', content: JSON.stringify({ total: amount }) },
      ],
      tools: [],
      params: { temperature: 0 },
    },
    response: { text: answer, reasoning: null, finish_reason: 'stop', tool_calls: [] },
    usage: { input_tokens: 200, output_tokens: 20, total_tokens: 220 },
    latency_ms: 30,
    error: null,
  });
  events.push({
    ...base(seq++, 'r', null, 0, end + 31),
    type: 'run',
    phase: 'end',
    name: 'refund-check',
    status: 'success',
    output: { refund: true, amount },
    error: null,
  });
  return events;
}

const GENERATED_AT = '2026-01-05T10:00:05.000Z';

export function sealed(
  events: object[],
  signed: 'ed25519' | 'other' | 'none' = 'ed25519',
): SealedRecord {
  const last = events[events.length - 1] as { ts_end: string; output: unknown };
  const run = {
    run_id: RUN_ID,
    name: 'refund-check',
    status: 'success',
    started_at: t(0),
    ended_at: last.ts_end,
    output: last.output,
  };
  const signer =
    signed === 'none'
      ? undefined
      : { alg: 'Ed25519' as const, privateKey: (signed === 'other' ? OTHER : SIGNER).privateKey };
  return sealRecord({ run, events }, { generatedAt: GENERATED_AT, signer });
}

/** The signed refund run as a pretty-printed file, as other producers write them. */
export function validRecordText(options: RunOptions = {}): string {
  return JSON.stringify(sealed(refundEvents(options)), null, 2);
}

/** The signed run with one tool output edited after sealing: event 3 no longer hashes. */
export function tamperedRecordText(): string {
  const record = JSON.parse(validRecordText()) as { events: { output?: unknown }[] };
  record.events[3]!.output = { total: 1250, currency: 'EUR' };
  return JSON.stringify(record, null, 2);
}

export function unsignedRecordText(): string {
  return JSON.stringify(sealed(refundEvents(), 'none'), null, 2);
}

/** A signed run of about `mib` MiB (compact JSON). */
export function largeRecordText(mib: number): string {
  const perEvent = 1200;
  const filler = Math.ceil((mib * 1048576) / (perEvent + 520));
  return JSON.stringify(sealed(refundEvents({ filler, fillerText: perEvent })));
}

/** A signed run of `count` small events (clock and random reads), for scrolling tests. */
export function manySmallEventsRecordText(count: number): string {
  const events: object[] = [];
  events.push({
    ...base(0, 'r', null, 0, 0),
    type: 'run',
    phase: 'start',
    name: 'many',
    status: 'running',
    input: null,
  });
  for (let i = 1; i < count - 1; i++) {
    const at = i % 60000;
    events.push({
      ...base(i, `e${i}`, 'r', at, at),
      type: 'env',
      kind: 'random',
      key: 'random',
      output: ((i * 7919) % 1000) / 1000,
    });
  }
  events.push({
    ...base(count - 1, 'r', null, 0, 60000),
    type: 'run',
    phase: 'end',
    name: 'many',
    status: 'success',
    output: null,
    error: null,
  });
  const run = { run_id: RUN_ID, name: 'many', status: 'success', output: null };
  return JSON.stringify(
    sealRecord(
      { run, events },
      { generatedAt: GENERATED_AT, signer: { alg: 'Ed25519', privateKey: SIGNER.privateKey } },
    ),
  );
}
