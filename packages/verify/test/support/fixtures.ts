// Deterministic records for tests: a realistic loan-approval run, sealed with fixed keys.
import {
  generateEd25519KeyPair,
  publicKeyToPem,
  sealRecord,
  type SealedRecord,
  type Signer,
} from '@runback/sign';
import { eventHeader } from './event-header.js';

const seed = (byte: number): Uint8Array => new Uint8Array(32).fill(byte);

/** Fixed Ed25519 key pairs: the producer's key, a rotated-out key and an attacker's key. */
export const KEYS = {
  current: generateEd25519KeyPair(seed(1)),
  previous: generateEd25519KeyPair(seed(2)),
  attacker: generateEd25519KeyPair(seed(3)),
};

export const PEM = {
  current: publicKeyToPem(KEYS.current.publicKey),
  previous: publicKeyToPem(KEYS.previous.publicKey),
  attacker: publicKeyToPem(KEYS.attacker.publicKey),
};

export const HMAC_KEY = 'runback-test-shared-secret';
export const GENERATED_AT = '2026-06-14T02:47:14.000Z';

const base = eventHeader;

/** The unsealed events and summary of a loan-approval run. */
export function loanRun(runId = 'run_a3f1b90c'): {
  run: Record<string, unknown>;
  events: Record<string, unknown>[];
} {
  const output = { decision: 'approve', amount: 25000, reason: 'score 742 above threshold 700' };
  const events: Record<string, unknown>[] = [
    {
      ...base(runId, 0, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:11.000Z', 'run'),
      phase: 'start',
      name: 'loan-approval-agent',
      status: 'running',
      input: { applicant_id: 'A-1029', amount: 25000 },
    },
    {
      ...base(runId, 1, 'l1', 'r', '2026-06-14T02:47:11.010Z', '2026-06-14T02:47:12.400Z', 'llm'),
      model: { provider: 'openai', model_id: 'gpt-4o' },
      request: {
        system: 'You approve or decline small business loans.',
        messages: [{ role: 'user', content: 'Applicant A-1029 asks for 25000 EUR.' }],
        tools: [
          {
            name: 'credit_score',
            description: 'Look up a credit score',
            parameters: { type: 'object', properties: { applicant_id: { type: 'string' } } },
          },
        ],
        params: { temperature: 0, request_id: 'req-81f2' },
      },
      response: {
        text: '',
        finish_reason: 'tool_calls',
        tool_calls: [
          { tool_call_id: 'call_1', tool_name: 'credit_score', input: { applicant_id: 'A-1029' } },
        ],
      },
      usage: { input_tokens: 428, output_tokens: 18, total_tokens: 446 },
      latency_ms: 1390,
      error: null,
      key_projection: { drop: ['params.request_id'] },
      metadata: { response_id: 'chatcmpl-1', system_fingerprint: 'fp_1' },
    },
    {
      ...base(runId, 2, 't1', 'r', '2026-06-14T02:47:12.410Z', '2026-06-14T02:47:12.600Z', 'tool'),
      tool_name: 'credit_score',
      tool_call_id: 'call_1',
      input: { applicant_id: 'A-1029' },
      output: { score: 742, bureau: 'Equifax' },
      latency_ms: 190,
      error: null,
    },
    {
      ...base(runId, 3, 'e1', 't1', '2026-06-14T02:47:12.601Z', '2026-06-14T02:47:12.601Z', 'env'),
      kind: 'now',
      key: 'now',
      output: 1781405232601,
    },
    {
      ...base(
        runId,
        4,
        'x1',
        'r',
        '2026-06-14T02:47:12.610Z',
        '2026-06-14T02:47:12.610Z',
        'reasoning',
      ),
      text: 'Score is above the 700 threshold.',
      label: 'policy',
    },
    {
      ...base(runId, 5, 'l2', 'r', '2026-06-14T02:47:12.700Z', '2026-06-14T02:47:13.900Z', 'llm'),
      model: { provider: 'openai', model_id: 'gpt-4o' },
      request: {
        system: 'You approve or decline small business loans.',
        messages: [{ role: 'tool', tool_call_id: 'call_1', content: '{"score":742}' }],
        tools: [],
        params: { temperature: 0 },
      },
      response: { text: JSON.stringify(output), finish_reason: 'stop', tool_calls: [] },
      usage: { input_tokens: 470, output_tokens: 40, total_tokens: 510 },
      latency_ms: 1200,
      error: null,
    },
    {
      ...base(runId, 6, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:13.950Z', 'run'),
      phase: 'end',
      name: 'loan-approval-agent',
      status: 'success',
      output,
      error: null,
    },
  ];
  const run = {
    run_id: runId,
    name: 'loan-approval-agent',
    status: 'success',
    started_at: '2026-06-14T02:47:11.000Z',
    ended_at: '2026-06-14T02:47:13.950Z',
    output,
  };
  return { run, events };
}

/** The loan run sealed and signed by the current key, another signer, or (null) unsigned. */
export function sealedLoanRecord(
  signer: Signer | null = { alg: 'Ed25519', privateKey: KEYS.current.privateKey },
): SealedRecord {
  return sealRecord(
    loanRun(),
    signer === null ? { generatedAt: GENERATED_AT } : { generatedAt: GENERATED_AT, signer },
  );
}

/** A deep copy through JSON, as a verifier would read it from a file. */
export function viaJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
