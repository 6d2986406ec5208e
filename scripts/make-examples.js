// Regenerates the sample records under examples/records/ (node scripts/make-examples.js).
// Deterministic: a fixed demo key and fixed timestamps, so the committed files only change
// when the format does. The demo key is public on purpose; never sign real runs with it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const demoKey = generateEd25519KeyPair(new Uint8Array(32).fill(42));

const ev = (runId, seq, span, parent, t0, t1, type, rest) => ({
  schema_version: 1,
  run_id: runId,
  span_id: span,
  parent_span_id: parent,
  seq,
  ts_start: t0,
  ts_end: t1,
  type,
  ...rest,
});

function loanApproval() {
  const id = 'run_a3f1b90c';
  const output = {
    decision: 'approve',
    amount_eur: 25000,
    rate_pct: 6.4,
    reason: 'credit score 742 is above the 700 threshold',
  };
  const events = [
    ev(id, 0, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:11.000Z', 'run', {
      phase: 'start',
      name: 'loan-approval-agent',
      status: 'running',
      input: { applicant_id: 'A-1029', amount_eur: 25000 },
      actor: { type: 'system', id: 'loan-intake' },
    }),
    ev(id, 1, 'l1', 'r', '2026-06-14T02:47:11.010Z', '2026-06-14T02:47:12.400Z', 'llm', {
      model: { provider: 'openai', model_id: 'gpt-4o' },
      request: {
        system: 'You approve or decline small-business loans under the bank policy.',
        messages: [
          { role: 'user', content: 'Applicant A-1029 requests 25000 EUR over 36 months.' },
        ],
        tools: [
          { name: 'credit_score', description: 'Look up the applicant credit score' },
          { name: 'policy_rate', description: 'Rate for a score band' },
        ],
        params: { temperature: 0 },
      },
      response: {
        text: '',
        reasoning: null,
        finish_reason: 'tool_calls',
        tool_calls: [
          { tool_call_id: 'call_1', tool_name: 'credit_score', input: { applicant_id: 'A-1029' } },
        ],
      },
      usage: { input_tokens: 428, output_tokens: 18, total_tokens: 446 },
      latency_ms: 1390,
      error: null,
      metadata: { response_id: 'chatcmpl-9f2', system_fingerprint: 'fp_5b1' },
    }),
    ev(id, 2, 't1', 'l1', '2026-06-14T02:47:12.410Z', '2026-06-14T02:47:12.600Z', 'tool', {
      tool_name: 'credit_score',
      tool_call_id: 'call_1',
      input: { applicant_id: 'A-1029' },
      output: { score: 742, bureau: 'Equifax' },
      latency_ms: 190,
      error: null,
    }),
    ev(id, 3, 'e1', 't1', '2026-06-14T02:47:12.601Z', '2026-06-14T02:47:12.601Z', 'env', {
      kind: 'now',
      key: 'now',
      output: 1781405232601,
    }),
    ev(id, 4, 'l2', 'r', '2026-06-14T02:47:12.610Z', '2026-06-14T02:47:13.100Z', 'llm', {
      model: { provider: 'openai', model_id: 'gpt-4o' },
      request: {
        system: 'You approve or decline small-business loans under the bank policy.',
        messages: [
          { role: 'tool', tool_call_id: 'call_1', content: '{"score":742,"bureau":"Equifax"}' },
        ],
        tools: [{ name: 'credit_score' }, { name: 'policy_rate' }],
        params: { temperature: 0 },
      },
      response: {
        text: '',
        reasoning: null,
        finish_reason: 'tool_calls',
        tool_calls: [{ tool_call_id: 'call_2', tool_name: 'policy_rate', input: { score: 742 } }],
      },
      usage: { input_tokens: 470, output_tokens: 16, total_tokens: 486 },
      latency_ms: 490,
      error: null,
    }),
    ev(id, 5, 't2', 'l2', '2026-06-14T02:47:13.110Z', '2026-06-14T02:47:13.150Z', 'tool', {
      tool_name: 'policy_rate',
      tool_call_id: 'call_2',
      input: { score: 742 },
      output: { band: 'A', rate_pct: 6.4 },
      latency_ms: 40,
      error: null,
    }),
    ev(id, 6, 'x1', 'r', '2026-06-14T02:47:13.151Z', '2026-06-14T02:47:13.151Z', 'reasoning', {
      text: 'Score 742 is band A; amount within the 50000 EUR limit.',
      label: 'policy-check',
    }),
    ev(id, 7, 'l3', 'r', '2026-06-14T02:47:13.160Z', '2026-06-14T02:47:13.940Z', 'llm', {
      model: { provider: 'openai', model_id: 'gpt-4o' },
      request: {
        system: 'You approve or decline small-business loans under the bank policy.',
        messages: [
          { role: 'tool', tool_call_id: 'call_2', content: '{"band":"A","rate_pct":6.4}' },
        ],
        tools: [],
        params: { temperature: 0 },
      },
      response: {
        text: JSON.stringify(output),
        reasoning: null,
        finish_reason: 'stop',
        tool_calls: [],
      },
      usage: { input_tokens: 512, output_tokens: 41, total_tokens: 553 },
      latency_ms: 780,
      error: null,
    }),
    ev(id, 8, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:13.950Z', 'run', {
      phase: 'end',
      name: 'loan-approval-agent',
      status: 'success',
      output,
      error: null,
    }),
  ];
  return {
    run: {
      run_id: id,
      name: 'loan-approval-agent',
      status: 'success',
      started_at: '2026-06-14T02:47:11.000Z',
      ended_at: '2026-06-14T02:47:13.950Z',
      output,
    },
    events,
  };
}

function triageFailure() {
  const id = 'run_5d0e77a2';
  const error = { name: 'ToolError', message: 'ticket system timed out after 3 attempts' };
  const events = [
    ev(id, 0, 'r', null, '2026-06-15T09:12:00.000Z', '2026-06-15T09:12:00.000Z', 'run', {
      phase: 'start',
      name: 'triage-router',
      status: 'running',
      input: { case_id: 'C-40211', channel: 'email' },
    }),
    ev(id, 1, 'l1', 'r', '2026-06-15T09:12:00.020Z', '2026-06-15T09:12:00.700Z', 'llm', {
      model: { provider: 'anthropic', model_id: 'claude-sonnet-4-5' },
      request: {
        system: 'Route support cases to a queue.',
        messages: [{ role: 'user', content: 'Charged twice for order O-5521, please refund one.' }],
        tools: [{ name: 'create_ticket' }],
        params: { max_tokens: 256 },
      },
      response: {
        text: '',
        reasoning: null,
        finish_reason: 'tool_use',
        tool_calls: [
          {
            tool_call_id: 'tu_1',
            tool_name: 'create_ticket',
            input: { queue: 'billing', priority: 'high' },
          },
        ],
      },
      usage: { input_tokens: 212, output_tokens: 30, total_tokens: 242 },
      latency_ms: 680,
      error: null,
    }),
    ev(id, 2, 'e1', 'l1', '2026-06-15T09:12:00.701Z', '2026-06-15T09:12:00.701Z', 'env', {
      kind: 'uuid',
      key: 'uuid',
      output: '8a3c1f0e-2b7d-4e55-9c1a-6f0d2e4b8a17',
    }),
    ev(id, 3, 't1', 'l1', '2026-06-15T09:12:00.710Z', '2026-06-15T09:12:09.710Z', 'tool', {
      tool_name: 'create_ticket',
      tool_call_id: 'tu_1',
      input: {
        queue: 'billing',
        priority: 'high',
        idempotency_key: '8a3c1f0e-2b7d-4e55-9c1a-6f0d2e4b8a17',
      },
      output: null,
      latency_ms: 9000,
      error,
      key_projection: { drop: ['idempotency_key'] },
    }),
    ev(id, 4, 'r', null, '2026-06-15T09:12:00.000Z', '2026-06-15T09:12:09.720Z', 'run', {
      phase: 'end',
      name: 'triage-router',
      status: 'error',
      output: null,
      error,
    }),
  ];
  return {
    run: {
      run_id: id,
      name: 'triage-router',
      status: 'error',
      started_at: '2026-06-15T09:12:00.000Z',
      ended_at: '2026-06-15T09:12:09.720Z',
      error,
    },
    events,
  };
}

const signer = { alg: 'Ed25519', privateKey: demoKey.privateKey };
mkdirSync(join(root, 'examples', 'records'), { recursive: true });
for (const [name, input, at] of [
  ['loan-approval.json', loanApproval(), '2026-06-14T02:47:14.000Z'],
  ['triage-failure.json', triageFailure(), '2026-06-15T09:12:10.000Z'],
]) {
  writeFileSync(
    join(root, 'examples', 'records', name),
    JSON.stringify(sealRecord(input, { generatedAt: at, signer }), null, 2) + '\n',
  );
}
writeFileSync(join(root, 'examples', 'keys', 'demo.pub.pem'), publicKeyToPem(demoKey.publicKey));
console.log(
  'wrote examples/records/{loan-approval,triage-failure}.json and examples/keys/demo.pub.pem',
);
