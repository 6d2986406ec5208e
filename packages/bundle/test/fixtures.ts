// A sealed, signed record whose events name two artifacts, and the artifacts' bytes.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';

export const SIGNER = generateEd25519KeyPair(new Uint8Array(32).fill(21));
export const SIGNER_PEM = publicKeyToPem(SIGNER.publicKey);

const enc = new TextEncoder();
export const ARTIFACTS = new Map<string, Uint8Array>([
  ['decision.json', enc.encode('{"decision":"approve"}\n')],
  ['logs/score.txt', enc.encode('credit score 742\n')],
]);

const ref = (name: string) => {
  const bytes = ARTIFACTS.get(name) as Uint8Array;
  return { name, sha256: bytesToHex(sha256(bytes)), bytes: bytes.length };
};

function base(seq: number, span: string, parent: string | null, ts: string) {
  return {
    schema_version: 1,
    run_id: 'run_bundle1',
    span_id: span,
    parent_span_id: parent,
    seq,
    ts_start: ts,
    ts_end: ts,
  };
}

/** The record as JSON text (pretty-printed, as a user would store it). */
export function recordText(options: { artifacts?: boolean } = {}): string {
  const withArtifacts = options.artifacts ?? true;
  const events = [
    {
      ...base(0, 'r', null, '2026-06-14T02:47:11.000Z'),
      type: 'run',
      phase: 'start',
      name: 'loan',
      status: 'running',
      input: { applicant: 'A-1' },
    },
    {
      ...base(1, 't1', 'r', '2026-06-14T02:47:12.000Z'),
      type: 'tool',
      tool_name: 'credit_score',
      tool_call_id: 'c1',
      input: { applicant: 'A-1' },
      output: { score: 742 },
      latency_ms: 12,
      error: null,
      ...(withArtifacts ? { artifacts: [ref('logs/score.txt')] } : {}),
    },
    {
      ...base(2, 'r', null, '2026-06-14T02:47:13.950Z'),
      ts_start: '2026-06-14T02:47:11.000Z',
      type: 'run',
      phase: 'end',
      name: 'loan',
      status: 'success',
      output: { decision: 'approve' },
      error: null,
      ...(withArtifacts ? { artifacts: [ref('decision.json')] } : {}),
    },
  ];
  const run = {
    run_id: 'run_bundle1',
    name: 'loan',
    status: 'success',
    started_at: '2026-06-14T02:47:11.000Z',
    ended_at: '2026-06-14T02:47:13.950Z',
    output: { decision: 'approve' },
  };
  const record = sealRecord(
    { run, events },
    {
      generatedAt: '2026-06-14T02:47:14.000Z',
      signer: { alg: 'Ed25519', privateKey: SIGNER.privateKey },
    },
  );
  return JSON.stringify(record, null, 2) + '\n';
}
