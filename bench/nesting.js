// (f) Adversarial nesting: an 8 MiB signed record whose tool inputs nest 505 containers deep
// (the JSON reader's limit is 512 for the whole record, spec §6), verified with the public
// verifyJson against the floor of JSON.parse + one SHA-256 over the same bytes. The inputs
// take the shapes that cost a serializer the most: members out of canonical order at every
// level, and an integer-like member name sorting after the nested one at every level (which
// no copy can keep in order). The text is written with every object's members reversed, so
// no event is stored in canonical order and nothing can hash it straight from its text.
// Limit: 3× the floor.
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { fmt, interleavedMedians } from './stats.js';

const TARGET_BYTES = 8 * 1024 * 1024;
const DEPTH = 505;

/** A value `depth` containers deep, alternating objects and arrays, in one of two shapes. */
function nestedInput(depth, integerNames) {
  let value = { leaf: 'x' };
  for (let i = 0; i < depth; i++) {
    if (i % 2 === 1) value = [value, i, 'a'];
    else if (integerNames) value = { '!': value, 0: i, b: 'abc' };
    else value = { z: value, a: i, b: 'abc' };
  }
  return value;
}

/** JSON text with every object's members in reverse order (the hashes do not depend on it). */
function reversedJson(value) {
  if (Array.isArray(value)) return '[' + value.map(reversedJson).join(',') + ']';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const keys = Object.keys(value).reverse();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + reversedJson(value[k])).join(',') + '}';
}

export function makeNestedRecord() {
  const runId = 'run_nesting01';
  const ts = (ms) => new Date(Date.UTC(2026, 5, 14) + ms).toISOString();
  const base = (seq, type, span, parent) => ({
    schema_version: 1,
    run_id: runId,
    span_id: span,
    parent_span_id: parent,
    seq,
    ts_start: ts(seq),
    ts_end: ts(seq + 1),
    type,
  });
  const one = JSON.stringify(nestedInput(DEPTH, false)).length + 300;
  const count = Math.ceil(TARGET_BYTES / one);
  const events = [
    { ...base(0, 'run', 'r', null), phase: 'start', name: 'nest', status: 'running', input: {} },
  ];
  for (let seq = 1; seq <= count; seq++)
    events.push({
      ...base(seq, 'tool', `t${seq}`, 'r'),
      tool_name: 'deep_lookup',
      tool_call_id: `call_${seq}`,
      input: nestedInput(DEPTH, seq % 2 === 0),
      output: { ok: true, seq },
      latency_ms: 1,
      error: null,
    });
  const last = count + 1;
  events.push({
    ...base(last, 'run', 'r', null),
    phase: 'end',
    name: 'nest',
    status: 'success',
    output: null,
    error: null,
  });
  const keys = generateEd25519KeyPair(new Uint8Array(32).fill(9));
  const record = sealRecord(
    { run: { run_id: runId, name: 'nest', status: 'success' }, events },
    { generatedAt: ts(last + 1), signer: { alg: 'Ed25519', privateKey: keys.privateKey } },
  );
  return {
    bytes: Buffer.from(reversedJson(record)),
    events: events.length,
    publicKey: keys.publicKey,
  };
}

export async function benchNesting(results) {
  const made = makeNestedRecord();
  const { bytes } = made;
  const options = { pinned: [publicKeyToPem(made.publicKey)] };
  const check = verifyJson(bytes, options);
  if (check.verdict !== 'valid')
    throw new Error(`nesting record did not verify: ${JSON.stringify(check.errors)}`);

  const [floor, full] = await interleavedMedians([
    () => {
      JSON.parse(bytes.toString('utf8'));
      createHash('sha256').update(bytes).digest('hex');
    },
    () => {
      if (verifyJson(bytes, options).verdict !== 'valid')
        throw new Error('verdict changed during the benchmark');
    },
  ]);
  results.nesting = {
    events: made.events,
    depth: DEPTH,
    bytes: bytes.length,
    floor_ms: floor,
    verify_ms: full,
    ratio: full / floor,
  };
  console.log(
    '(f) verify an adversarially nested record: %s events with %d-deep inputs (%s MiB)',
    made.events.toLocaleString('en'),
    DEPTH,
    (bytes.length / 1024 / 1024).toFixed(1),
  );
  console.log(`    floor (JSON.parse + SHA-256)  ${fmt(floor)} ms`);
  console.log(`    runback verifyJson            ${fmt(full)} ms`);
  console.log(
    `    ratio                         ${fmt(results.nesting.ratio, 2)} × floor (limit 3.00)\n`,
  );
  if (results.nesting.ratio >= 3)
    console.log('    ABOVE THE LIMIT: adversarial nesting must verify in under 3× the floor\n');
}

// `node --expose-gc bench/nesting.js` runs this row alone.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchNesting({});
