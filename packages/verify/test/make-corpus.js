// Regenerates the fixed corpus under test/vectors/ (run: pnpm --filter @runback/verify corpus).
// Every case is a file plus its expected result in index.json; the corpus is committed and
// re-verified in CI through the library, the runback-verify bin and the runback CLI, so a
// change in any verdict is caught. Regenerate only for a deliberate format change.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cassetteDigest } from '@runback/replay-digest';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord, signRecord } from '@runback/sign';
import { eventHeader } from './support/event-header.js';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'vectors');
const GENERATED_AT = '2026-06-14T02:47:14.000Z';
const HMAC_KEY = 'corpus-shared-secret';

const key = (byte) => generateEd25519KeyPair(new Uint8Array(32).fill(byte));
const KEYS = { producer: key(11), rotated: key(12), attacker: key(13) };
const ed = (k) => ({ alg: 'Ed25519', privateKey: k.privateKey });

const base = eventHeader;

/** A refund-approval run: start, model call with a tool call, tool, clock, random, model answer, end. */
function refundRun(runId = 'run_7c2e9a41') {
  const output = { decision: 'refund', amount_cents: 4599, order_id: 'O-88231' };
  const events = [
    {
      ...base(runId, 0, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:11.000Z', 'run'),
      phase: 'start',
      name: 'refund-agent',
      status: 'running',
      input: { ticket: 'T-5512' },
      actor: { type: 'api_key', id: 'key_live_support' },
    },
    {
      ...base(runId, 1, 'l1', 'r', '2026-06-14T02:47:11.020Z', '2026-06-14T02:47:11.900Z', 'llm'),
      model: { provider: 'anthropic', model_id: 'claude-sonnet-4-5' },
      request: {
        system: 'Decide refunds under 50 EUR.',
        messages: [{ role: 'user', content: 'Order O-88231 arrived broken.' }],
        tools: [{ name: 'get_order' }],
        params: { max_tokens: 512, metadata: { trace: 'tr-1' } },
      },
      response: {
        text: '',
        reasoning: null,
        finish_reason: 'tool_use',
        tool_calls: [
          { tool_call_id: 'tu_1', tool_name: 'get_order', input: { order_id: 'O-88231' } },
        ],
      },
      usage: { input_tokens: 310, output_tokens: 22, total_tokens: 332 },
      latency_ms: 880,
      error: null,
      key_projection: { drop: ['/params/metadata/trace'] },
      metadata: { response_id: 'msg_01', system_fingerprint: null },
    },
    {
      ...base(runId, 2, 't1', 'l1', '2026-06-14T02:47:11.910Z', '2026-06-14T02:47:12.010Z', 'tool'),
      tool_name: 'get_order',
      tool_call_id: 'tu_1',
      input: { order_id: 'O-88231', request_nonce: 'n-77' },
      output: { total_cents: 4599, status: 'delivered', damaged: true },
      latency_ms: 100,
      error: null,
      key_projection: { keep: ['order_id'] },
    },
    {
      ...base(runId, 3, 'e1', 'r', '2026-06-14T02:47:12.011Z', '2026-06-14T02:47:12.011Z', 'env'),
      kind: 'now',
      key: 'now',
      output: 1781405232011,
    },
    {
      ...base(runId, 4, 'e2', 'r', '2026-06-14T02:47:12.012Z', '2026-06-14T02:47:12.012Z', 'env'),
      kind: 'random',
      key: 'random',
      output: 0.7316,
    },
    {
      ...base(
        runId,
        5,
        'x1',
        'r',
        '2026-06-14T02:47:12.013Z',
        '2026-06-14T02:47:12.013Z',
        'reasoning',
      ),
      text: 'Damaged on arrival and under the limit.',
      label: 'policy',
    },
    {
      ...base(runId, 6, 'l2', 'r', '2026-06-14T02:47:12.020Z', '2026-06-14T02:47:12.900Z', 'llm'),
      model: { provider: 'anthropic', model_id: 'claude-sonnet-4-5' },
      request: {
        system: 'Decide refunds under 50 EUR.',
        messages: [{ role: 'user', content: '{"total_cents":4599,"damaged":true}' }],
        tools: [],
        params: { max_tokens: 512 },
      },
      response: {
        text: JSON.stringify(output),
        reasoning: null,
        finish_reason: 'end_turn',
        tool_calls: [],
      },
      usage: { input_tokens: 355, output_tokens: 31, total_tokens: 386 },
      latency_ms: 880,
      error: null,
    },
    {
      ...base(runId, 7, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:12.950Z', 'run'),
      phase: 'end',
      name: 'refund-agent',
      status: 'success',
      output,
      error: null,
    },
  ];
  const run = {
    run_id: runId,
    name: 'refund-agent',
    status: 'success',
    started_at: '2026-06-14T02:47:11.000Z',
    ended_at: '2026-06-14T02:47:12.950Z',
    output,
  };
  return { run, events };
}

const seal = (input, signer) =>
  sealRecord(input, signer ? { generatedAt: GENERATED_AT, signer } : { generatedAt: GENERATED_AT });
const copy = (v) => JSON.parse(JSON.stringify(v));
const pretty = (v) => JSON.stringify(v, null, 2) + '\n';

const cases = [];
const files = new Map();
function add(group, name, description, content, expectations) {
  const file = `${group}/${name}`;
  files.set(file, content);
  for (const [trust, expected] of expectations)
    cases.push({ file, description, trust, ...expected });
}
const PINNED = { pinned: ['keys/producer.pub.pem'] };
const ROTATED = { pinned: ['keys/producer.pub.pem', 'keys/rotated.pub.pem'] };
const HMAC = { hmac_key: HMAC_KEY };

const signed = seal(refundRun(), ed(KEYS.producer));

// valid ---------------------------------------------------------------------------------------
add('valid', 'ed25519-signed.json', 'Ed25519-signed refund run, signer pinned', pretty(signed), [
  [PINNED, { verdict: 'valid' }],
  [{}, { verdict: 'unverified', signature: 'valid-unpinned' }],
  [{ pinned: ['keys/attacker.pub.pem'] }, { verdict: 'unverified', signature: 'valid-unpinned' }],
  [
    { ...PINNED, revoked: ['keys/producer.pub.pem'] },
    { verdict: 'invalid', signature: 'revoked', codes: ['SIGNATURE_REVOKED'] },
  ],
]);
add('valid', 'ed25519-compact.json', 'The same record without whitespace', JSON.stringify(signed), [
  [PINNED, { verdict: 'valid' }],
]);
add(
  'valid',
  'ed25519-bom.json',
  'A leading UTF-8 byte order mark is dropped',
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(pretty(signed))]),
  [[PINNED, { verdict: 'valid' }]],
);
add(
  'valid',
  'rotated-key.json',
  'Signed by a rotated-out key that is still pinned',
  pretty(seal(refundRun(), ed(KEYS.rotated))),
  [
    [ROTATED, { verdict: 'valid' }],
    [PINNED, { verdict: 'unverified', signature: 'valid-unpinned' }],
  ],
);
add(
  'valid',
  'hmac-signed.json',
  'HMAC-SHA256-signed run',
  pretty(seal(refundRun(), { alg: 'HMAC-SHA256', key: HMAC_KEY })),
  [
    [HMAC, { verdict: 'valid' }],
    [{}, { verdict: 'unverified', signature: 'no-key' }],
    [
      { hmac_key: 'not-the-key' },
      { verdict: 'invalid', signature: 'invalid', codes: ['SIGNATURE_INVALID'] },
    ],
  ],
);
add('valid', 'unsigned.json', 'Intact but unsigned', pretty(seal(refundRun())), [
  [PINNED, { verdict: 'unverified', signature: 'unsigned' }],
]);
const legacy = copy(signed);
legacy.$schema = 'runback.cassette/v1';
add(
  'valid',
  'legacy-schema.json',
  'Legacy schema name runback.cassette/v1 (not hashed, so the signature still holds)',
  pretty(legacy),
  [[PINNED, { verdict: 'valid' }]],
);
{
  const input = refundRun('run_running1');
  input.events.pop();
  input.run = {
    run_id: 'run_running1',
    name: 'refund-agent',
    status: 'running',
    started_at: '2026-06-14T02:47:11.000Z',
  };
  add(
    'valid',
    'still-running.json',
    'A run with no end event yet: status running',
    pretty(seal(input, ed(KEYS.producer))),
    [[PINNED, { verdict: 'valid' }]],
  );
}
add(
  'valid',
  'zero-events.json',
  'No events: both digests are sha256("")',
  pretty(seal({ run: { run_id: 'run_empty' }, events: [] }, ed(KEYS.producer))),
  [[PINNED, { verdict: 'valid' }]],
);
{
  const input = refundRun('run_edgecase');
  input.events[2].output = JSON.parse(
    '{"__proto__":{"polluted":true},"10":"ten","2":"two","é":"e-acute","\\ud83d\\ude02":"emoji","\\ufb33":"dalet","lone":"\\ud800","neg_zero":-0,"big":1e21,"small":1e-7}',
  );
  input.events.splice(6, 0, {
    ...base(
      'run_edgecase',
      8,
      'u1',
      'r',
      '2026-06-14T02:47:12.014Z',
      '2026-06-14T02:47:12.014Z',
      'custom.audit',
    ),
    verdict_hint: 'unknown types enter the chain, not the cassette',
    extra: [1, { b: 2, a: 1 }],
  });
  add(
    'valid',
    'edge-values.json',
    '__proto__ member, integer-like keys, UTF-16 key order, lone surrogate, -0, exponents, unknown event type',
    pretty(seal(input, ed(KEYS.producer))),
    [[PINNED, { verdict: 'valid' }]],
  );
}
{
  const input = refundRun('run_deep0512');
  let deep = 'bottom';
  for (let i = 0; i < 508; i++) deep = [deep];
  input.events[2].output = { nested: deep };
  add(
    'valid',
    'deep-512.json',
    'Nesting exactly 512 levels deep is read',
    JSON.stringify(seal(input, ed(KEYS.producer))),
    [[PINNED, { verdict: 'valid' }]],
  );
}

// tampered ------------------------------------------------------------------------------------
const tamper = (name, description, edit, expected, trust = PINNED) => {
  const record = copy(signed);
  edit(record);
  add('tampered', name, description, pretty(record), [[trust, expected]]);
};
tamper(
  'tool-output-edited.json',
  'A tool output changed after signing',
  (r) => (r.events[2].output.total_cents = 9999),
  {
    verdict: 'invalid',
    chain: false,
    digest: false,
    cassette: false,
    codes: ['CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH', 'CASSETTE_MISMATCH'],
    event_index: 2,
  },
);
tamper(
  'reasoning-edited.json',
  'A reasoning event changed (not in the cassette)',
  (r) => (r.events[5].text = 'Looks fine.'),
  {
    verdict: 'invalid',
    chain: false,
    digest: false,
    codes: ['CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH'],
    event_index: 5,
  },
);
tamper(
  'events-swapped.json',
  'Two events swapped in the array',
  (r) => ([r.events[3], r.events[4]] = [r.events[4], r.events[3]]),
  {
    verdict: 'invalid',
    chain: false,
    digest: false,
    codes: ['CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH'],
    event_index: 3,
  },
);
tamper('event-removed.json', 'The last model call removed', (r) => r.events.splice(6, 1), {
  verdict: 'invalid',
  consistent: false,
  chain: false,
  digest: false,
  cassette: false,
  codes: [
    'CONSISTENT_EVENT_COUNT',
    'CHAIN_HASH_MISMATCH',
    'DIGEST_MISMATCH',
    'CASSETTE_MISMATCH',
    'CASSETTE_ENTRY_COUNT',
  ],
  event_index: 6,
});
tamper(
  'summary-status.json',
  'run.status contradicts the run end event',
  (r) => (r.run.status = 'error'),
  { verdict: 'invalid', consistent: false, codes: ['CONSISTENT_RUN_SUMMARY'] },
);
tamper(
  'summary-output.json',
  'run.output contradicts the run end event',
  (r) => (r.run.output.amount_cents = 45990),
  { verdict: 'invalid', consistent: false, codes: ['CONSISTENT_RUN_SUMMARY'] },
);
tamper(
  'summary-started-at.json',
  'run.started_at contradicts the run start event',
  (r) => (r.run.started_at = '2026-06-13T00:00:00.000Z'),
  { verdict: 'invalid', consistent: false, codes: ['CONSISTENT_RUN_SUMMARY'] },
);
tamper(
  'manifest-run-id.json',
  'manifest.run_id differs from the events',
  (r) => (r.manifest.run_id = 'run_00000000'),
  { verdict: 'invalid', consistent: false, codes: ['CONSISTENT_RUN_ID', 'CONSISTENT_RUN_ID'] },
);
tamper(
  'manifest-event-count.json',
  'manifest.event_count is wrong',
  (r) => (r.manifest.event_count = 7),
  { verdict: 'invalid', consistent: false, codes: ['CONSISTENT_EVENT_COUNT'] },
);
tamper(
  'manifest-entry-count.json',
  'manifest.replay.entry_count is wrong',
  (r) => (r.manifest.replay.entry_count = 4),
  { verdict: 'invalid', cassette: false, codes: ['CASSETTE_ENTRY_COUNT'] },
);
tamper(
  'content-digest.json',
  'manifest.content_digest replaced',
  (r) => (r.manifest.content_digest = 'f'.repeat(64)),
  {
    verdict: 'invalid',
    digest: false,
    signature: 'invalid',
    codes: ['DIGEST_MISMATCH', 'SIGNATURE_INVALID'],
  },
);
tamper(
  'duplicate-seq.json',
  'Two events share a seq (the stable seq sort keeps the cassette order)',
  (r) => (r.events[4].seq = 3),
  {
    verdict: 'invalid',
    consistent: false,
    chain: false,
    digest: false,
    codes: ['CONSISTENT_SEQ', 'CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH'],
    event_index: 4,
  },
);
tamper(
  'signature-flipped.json',
  'One hex digit of the signature changed',
  (r) =>
    (r.manifest.signature.value =
      (r.manifest.signature.value[0] === 'a' ? 'b' : 'a') + r.manifest.signature.value.slice(1)),
  { verdict: 'invalid', signature: 'invalid', codes: ['SIGNATURE_INVALID'] },
);
tamper(
  'signature-uppercase.json',
  'Signature hex in upper case (the format requires lower case)',
  (r) => (r.manifest.signature.value = r.manifest.signature.value.toUpperCase()),
  { verdict: 'invalid', signature: 'invalid', codes: ['SIGNATURE_INVALID'] },
);
tamper(
  'signature-unknown-alg.json',
  'Unknown signature algorithm (never treated as HMAC)',
  (r) => (r.manifest.signature.alg = 'RS256'),
  { verdict: 'invalid', signature: 'invalid', codes: ['SIGNATURE_INVALID'] },
);
tamper(
  'signature-key-swapped.json',
  'Inline public key replaced by the attacker key',
  (r) => (r.manifest.signature.pubkey = publicKeyToPem(KEYS.attacker.publicKey)),
  { verdict: 'invalid', signature: 'invalid', codes: ['SIGNATURE_INVALID'] },
);
tamper(
  'signed-false.json',
  'signed set to false: the record reads as unsigned',
  (r) => (r.manifest.signed = false),
  { verdict: 'unverified', signature: 'unsigned' },
);
{
  const input = refundRun();
  input.events[2].output.total_cents = 999;
  const forged = seal(input, ed(KEYS.attacker));
  add(
    'tampered',
    'resealed-by-attacker.json',
    'Edited and fully re-sealed with another key: intact, but not from the pinned signer',
    pretty(forged),
    [[PINNED, { verdict: 'unverified', signature: 'valid-unpinned' }]],
  );
  const rechained = seal(input);
  rechained.manifest.signed = true;
  rechained.manifest.signature = signed.manifest.signature;
  add(
    'tampered',
    'rechained-old-signature.json',
    'Edited, chain and digests recomputed, original signature kept',
    pretty(rechained),
    [[PINNED, { verdict: 'invalid', signature: 'invalid', codes: ['SIGNATURE_INVALID'] }]],
  );
}

// format decisions (docs/spec.md §4.1, §4.2, §5.1, §5.2, §5.5) ---------------------------------
/** The refund run with its events' members in the order they were written and `_hash` last. */
const foreignOrder = (record) => ({
  ...record,
  events: record.events.map(({ _hash, ...rest }) => ({ ...rest, _hash })),
});
/** A tool call that returned nothing (no output member) and a failed model call that kept its response. */
function divergentRun(runId) {
  const input = refundRun(runId);
  delete input.events[2].output;
  input.events[6].error = {
    name: 'RateLimitError',
    message: 'model call failed after the response',
  };
  return input;
}
const OK = { verdict: 'valid' };
{
  const input = refundRun('run_tsendnul');
  for (const event of input.events) if (event.type === 'env') event.ts_end = null;
  input.events[0].ts_end = null;
  const end = input.events[input.events.length - 1];
  end.ts_end = null;
  input.run.ended_at = end.ts_start;
  const record = seal(input, ed(KEYS.producer));
  add(
    'valid',
    'ts-end-null.json',
    'ts_end null on run start, env and run end events (ended_at then matches ts_start)',
    pretty(record),
    [[PINNED, OK]],
  );
  const empty = copy(record);
  empty.events[3].ts_end = '';
  add(
    'tampered',
    'ts-end-empty.json',
    'ts_end may be null but not an empty string',
    pretty(empty),
    [
      [
        PINNED,
        {
          verdict: 'invalid',
          schema: false,
          chain: false,
          digest: false,
          codes: ['SCHEMA_EVENT', 'CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH'],
          event_index: 3,
        },
      ],
    ],
  );
}
{
  const record = seal(divergentRun('run_pubread1'), ed(KEYS.producer));
  add(
    'valid',
    'published-reading.json',
    'Entry outputs in the published reading (a tool that returned nothing, a failed call with a response): valid, note CASSETTE_READING_PUBLISHED',
    pretty(record),
    [[PINNED, OK]],
  );
  const seedRead = copy(record);
  seedRead.manifest.replay.cassette_digest = cassetteDigest(
    seedRead.events,
    undefined,
    'seed',
  ).digest;
  add(
    'valid',
    'seed-reading.json',
    'The same events with the cassette digest in the seed reading (docs/spec.md §4.1)',
    pretty(signRecord(seedRead, ed(KEYS.producer))),
    [[PINNED, OK]],
  );
  const edited = copy(record);
  edited.events[2].output = { total_cents: 0 };
  add(
    'tampered',
    'published-reading-output-added.json',
    'An output added to the tool call that returned nothing',
    pretty(edited),
    [
      [
        PINNED,
        {
          verdict: 'invalid',
          chain: false,
          digest: false,
          cassette: false,
          codes: ['CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH', 'CASSETTE_MISMATCH'],
          event_index: 2,
        },
      ],
    ],
  );
  const neither = copy(record);
  neither.manifest.replay.cassette_digest = cassetteDigest(
    neither.events.slice(0, 3),
    undefined,
    'seed',
  ).digest;
  add(
    'tampered',
    'cassette-neither-reading.json',
    'A cassette digest that neither reading reproduces, re-signed by the producer',
    pretty(signRecord(neither, ed(KEYS.producer))),
    [[PINNED, { verdict: 'invalid', cassette: false, codes: ['CASSETTE_MISMATCH'] }]],
  );
}
{
  const input = refundRun('run_keepnone');
  input.events[2].key_projection = { keep: [] };
  const record = seal(input, ed(KEYS.producer));
  add(
    'valid',
    'keep-empty.json',
    'key_projection keep: [] is no allowlist: the input is keyed whole',
    pretty(record),
    [[PINNED, OK]],
  );
  const nothingKept = copy(record);
  const keyedEmpty = nothingKept.events.map((e, i) =>
    i === 2 ? { ...e, input: {}, key_projection: undefined } : e,
  );
  nothingKept.manifest.replay.cassette_digest = cassetteDigest(keyedEmpty).digest;
  add(
    'tampered',
    'keep-empty-read-as-keep-nothing.json',
    'Cassette digest computed as if keep: [] kept nothing, re-signed',
    pretty(signRecord(nothingKept, ed(KEYS.producer))),
    [[PINNED, { verdict: 'invalid', cassette: false, codes: ['CASSETTE_MISMATCH'] }]],
  );
}
{
  const input = refundRun('run_ptrarray');
  input.events[1].key_projection = {
    keep: ['/messages/0/content', '/tools'],
    drop: ['/tools/0/name'],
  };
  const record = seal(input, ed(KEYS.producer));
  add(
    'valid',
    'pointer-through-array.json',
    'JSON Pointers through arrays in keep and drop',
    pretty(record),
    [[PINNED, OK]],
  );
  const edited = copy(record);
  edited.events[1].request.messages[0].role = 'system';
  add(
    'tampered',
    'pointer-unkept-member-edited.json',
    'A member the Pointer does not keep edited: the chain breaks, the cassette key does not change',
    pretty(edited),
    [
      [
        PINNED,
        {
          verdict: 'invalid',
          chain: false,
          digest: false,
          codes: ['CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH'],
          event_index: 1,
        },
      ],
    ],
  );
}
{
  const record = copy(signed);
  record.run.started_at = '2026-06-14T02:47:11+00:00';
  record.run.ended_at = '2026-06-14T04:47:12.950+02:00';
  add(
    'valid',
    'summary-offset-times.json',
    'Summary times read back from a database: +00:00, another offset, milliseconds dropped',
    pretty(record),
    [[PINNED, OK]],
  );
}
tamper(
  'summary-other-instant.json',
  'run.ended_at one millisecond off the run end event',
  (r) => (r.run.ended_at = '2026-06-14T02:47:12.951Z'),
  { verdict: 'invalid', consistent: false, codes: ['CONSISTENT_RUN_SUMMARY'] },
);
tamper(
  'summary-time-unparseable.json',
  'run.started_at is not an ISO 8601 date-time with a zone',
  (r) => (r.run.started_at = '2026-06-14T02:47:11.000'),
  { verdict: 'invalid', consistent: false, codes: ['CONSISTENT_RUN_SUMMARY'] },
);
tamper(
  'entry-count-missing.json',
  'manifest.replay.entry_count removed',
  (r) => delete r.manifest.replay.entry_count,
  { verdict: 'invalid', cassette: false, codes: ['CASSETTE_ENTRY_COUNT'] },
);
{
  const record = copy(signed);
  delete record.manifest.signature.pubkey;
  add(
    'valid',
    'no-inline-pubkey.json',
    'Ed25519 signature without an inline pubkey: checked against the pinned keys',
    pretty(record),
    [
      [PINNED, OK],
      [{}, { verdict: 'unverified', signature: 'no-key' }],
      [
        { ...PINNED, revoked: ['keys/producer.pub.pem'] },
        { verdict: 'invalid', signature: 'revoked', codes: ['SIGNATURE_REVOKED'] },
      ],
    ],
  );
}
add(
  'valid',
  'foreign-order.json',
  'Members in the order they were written, _hash last, pretty printed (as other producers write)',
  pretty(foreignOrder(signed)),
  [[PINNED, OK]],
);
add(
  'valid',
  'foreign-order-compact.json',
  'The same, without whitespace',
  JSON.stringify(foreignOrder(signed)),
  [[PINNED, OK]],
);
{
  const record = seal(divergentRun('run_pubread2'), ed(KEYS.producer));
  add(
    'valid',
    'published-reading-foreign-order.json',
    'Published reading, members in written order, _hash last, 2-space indent',
    JSON.stringify(foreignOrder(record), null, 2),
    [[PINNED, OK]],
  );
}
// The published implementation's own sample records, byte for byte (../shared/vectors/runback-published).
{
  const from = join(here, '..', '..', '..', '..', 'shared', 'vectors', 'runback-published');
  const PUBLISHED = { pinned: ['keys/runback-published.pub.pem'] };
  files.set('keys/runback-published.pub.pem', readFileSync(join(from, 'signer.pub.pem')));
  add(
    'valid',
    'runback-published-ed25519.json',
    "The published implementation's sample record, Ed25519 (ts_end null, published reading)",
    readFileSync(join(from, 'sample-cassette.ed25519.json')),
    [
      [PUBLISHED, OK],
      [PINNED, { verdict: 'unverified', signature: 'valid-unpinned' }],
    ],
  );
  add(
    'valid',
    'runback-published-hmac.json',
    "The published implementation's sample record, HMAC (key: UTF-8 text)",
    readFileSync(join(from, 'sample-cassette.hmac.json')),
    [
      [{ hmac_key: 'community-shared-secret-ü' }, OK],
      [{}, { verdict: 'unverified', signature: 'no-key' }],
    ],
  );
  add(
    'valid',
    'runback-published-unsigned.json',
    "The published implementation's sample record, unsigned",
    readFileSync(join(from, 'sample-cassette.unsigned.json')),
    [[{}, { verdict: 'unverified', signature: 'unsigned' }]],
  );
}

// malformed -----------------------------------------------------------------------------------
const text = pretty(signed);
const malformed = (name, description, content, codes, extra = {}) =>
  add('malformed', name, description, content, [
    [
      PINNED,
      {
        verdict: 'invalid',
        schema: false,
        consistent: false,
        chain: false,
        digest: false,
        cassette: false,
        signature: 'unsigned',
        codes,
        ...extra,
      },
    ],
  ]);
malformed('not-json.txt', 'Not JSON at all', 'runback record: approved\n', ['JSON_SYNTAX']);
malformed('truncated.json', 'Cut off in the middle', text.slice(0, Math.floor(text.length / 2)), [
  'JSON_SYNTAX',
]);
malformed('empty.json', 'Empty file', '', ['JSON_EMPTY']);
malformed(
  'invalid-utf8.json',
  'A byte that is not UTF-8 inside a string',
  Buffer.concat([
    Buffer.from(text.slice(0, 200)),
    Buffer.from([0xc3, 0x28]),
    Buffer.from(text.slice(200)),
  ]),
  ['JSON_INVALID_UTF8'],
);
malformed(
  'duplicate-member.json',
  'A member name twice in one object: two parsers could read two records',
  text.replace('"status": "success",', '"status": "success",\n    "status": "error",'),
  ['JSON_DUPLICATE_MEMBER'],
);
malformed(
  'duplicate-escaped.json',
  'A duplicate hidden by an escape (\\u0061mount_cents)',
  text.replace('"amount_cents": 4599,', '"amount_cents": 4599, "\\u0061mount_cents": 1,'),
  ['JSON_DUPLICATE_MEMBER'],
);
malformed('deep-600.json', 'Nesting 600 levels deep', '['.repeat(600) + ']'.repeat(600), [
  'JSON_TOO_DEEP',
]);
malformed(
  'huge-number.json',
  'A number beyond the double range',
  text.replace('"latency_ms": 100', '"latency_ms": 1e400'),
  ['JSON_NUMBER_OUT_OF_RANGE'],
);
add('malformed', 'top-level-array.json', 'A JSON array, not a record', '[1,2,3]\n', [
  [
    PINNED,
    {
      verdict: 'invalid',
      schema: false,
      consistent: false,
      chain: false,
      digest: false,
      cassette: false,
      signature: 'unsigned',
      codes: [
        'SCHEMA_NOT_OBJECT',
        'CONSISTENT_UNCHECKABLE',
        'CHAIN_NO_EVENTS',
        'DIGEST_NO_MANIFEST',
        'CASSETTE_NO_REPLAY',
      ],
    },
  ],
]);
{
  const r = copy(signed);
  r.$schema = 'runback.audit/v9';
  add('malformed', 'unknown-schema.json', 'An unknown $schema', pretty(r), [
    [PINNED, { verdict: 'invalid', schema: false, codes: ['SCHEMA_UNKNOWN'] }],
  ]);
  const e = copy(signed);
  e.events[1].span_id = '';
  add('malformed', 'empty-span-id.json', 'An event with an empty span_id', pretty(e), [
    [
      PINNED,
      {
        verdict: 'invalid',
        schema: false,
        chain: false,
        digest: false,
        codes: ['SCHEMA_EVENT', 'CHAIN_HASH_MISMATCH', 'DIGEST_MISMATCH'],
        event_index: 1,
      },
    ],
  ]);
}

{
  // A second _hash directly after the first, in the stored form the fast path reads.
  const compact = JSON.stringify(signed);
  const at = compact.indexOf('"_hash":"', compact.indexOf('"events"'));
  const end = compact.indexOf('"', at + 9) + 1;
  malformed(
    'duplicate-hash.json',
    'A second _hash member directly after the first',
    compact.slice(0, end) + ',"_hash":"' + '0'.repeat(64) + '"' + compact.slice(end),
    ['JSON_DUPLICATE_MEMBER'],
  );
}

// Fill in defaults: every check passes unless the case says otherwise; the exit code follows
// from the verdict. Then make sure the library agrees before anything is written.
rmSync(out, { recursive: true, force: true });
for (const [file, content] of files) {
  mkdirSync(dirname(join(out, file)), { recursive: true });
  writeFileSync(join(out, file), content);
}
mkdirSync(join(out, 'keys'), { recursive: true });
for (const [name, k] of Object.entries(KEYS))
  writeFileSync(join(out, 'keys', `${name}.pub.pem`), publicKeyToPem(k.publicKey));

const index = cases.map((c) => {
  const { file, description, trust, verdict, codes = [], event_index, ...checks } = c;
  const expected = {
    verdict,
    exit: verdict === 'valid' ? 0 : verdict === 'invalid' ? 1 : 2,
    checks: {
      schema: true,
      consistent: true,
      chain: true,
      digest: true,
      cassette: true,
      signature: 'valid',
      ...checks,
    },
    error_codes: codes,
  };
  if (event_index !== undefined) expected.first_event_index = event_index;
  return { file, description, trust, expected };
});
writeFileSync(
  join(out, 'index.json'),
  JSON.stringify(
    {
      description:
        'runback verify corpus: files and the result every verifier must give for them (packages/verify/test/make-corpus.js)',
      hmac_key_note:
        'trust.hmac_key is the HMAC key as a UTF-8 string; pinned and revoked name PEM files relative to this folder',
      cases: index,
    },
    null,
    2,
  ) + '\n',
);
// test/corpus.test.ts checks every case through the library and both command lines.
console.log(`wrote ${files.size} files and ${index.length} cases to ${out}`);
