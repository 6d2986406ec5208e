// `pnpm bench`: speed goals as side-by-side ratios measured in one run (never in unit tests).
//   (a) canonical vs the npm `canonicalize` package on a realistic agent record, output equal;
//   (b) verifying a 100k-event signed record vs the floor: read + JSON.parse + one SHA-256;
//   (c) the recorder's overhead per llm + tool pair vs the bare calls, and journaling's cost;
//   (d) replaying a 10,000-call record: time and peak heap;
//   (e) the audit service over loopback: verify requests/s and p99, ingest of 100k events;
//   (f) verifying an 8 MiB record of adversarially nested inputs vs JSON.parse + one SHA-256;
//   (g) `runback diff` of two 100k-event records in its own process: time and peak RSS.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonical } from '@runback/canonical';
import { publicKeyToPem } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import canonicalize from 'canonicalize';
import { benchApi } from './api.js';
import { benchDiff } from './diff.js';
import { makeSignedRecord } from './make-record.js';
import { benchNesting } from './nesting.js';
import { benchRecording } from './recording.js';
import { benchReplay } from './replay.js';
import { fmt, interleavedMedians } from './stats.js';

const EVENTS = Number(process.env.RUNBACK_BENCH_EVENTS ?? 100_000);
const results = {};

if (typeof globalThis.gc !== 'function')
  console.warn(
    'note: run with node --expose-gc (pnpm bench does) to collect the heap between timed runs',
  );
console.log(`runback bench — node ${process.version}, ${EVENTS.toLocaleString('en')} events\n`);

// (a) canonical throughput ----------------------------------------------------------------
{
  const { record } = makeSignedRecord(2_000);
  const ours = canonical(record);
  const theirs = canonicalize(record);
  if (ours !== theirs)
    throw new Error('canonical and canonicalize disagree on the benchmark record');
  const mb = Buffer.byteLength(ours) / 1e6;
  const [tOurs, tTheirs] = interleavedMedians(
    [() => canonical(record), () => canonicalize(record)],
    { runs: 15 },
  );
  results.canonical = {
    bytes: Buffer.byteLength(ours),
    ours_mb_s: mb / (tOurs / 1000),
    canonicalize_mb_s: mb / (tTheirs / 1000),
  };
  console.log(
    '(a) canonical form of a 2,000-event agent record (%s MB), outputs identical',
    mb.toFixed(2),
  );
  console.log(`    @runback/canonical  ${fmt(results.canonical.ours_mb_s)} MB/s`);
  console.log(`    canonicalize (npm)  ${fmt(results.canonical.canonicalize_mb_s)} MB/s`);
  console.log(
    `    ratio               ${fmt(results.canonical.ours_mb_s / results.canonical.canonicalize_mb_s, 2)} × (goal ≥ 1.00)\n`,
  );
}

// (b) verify vs floor ---------------------------------------------------------------------
{
  const dir = mkdtempSync(join(tmpdir(), 'runback-bench-'));
  try {
    const file = join(dir, 'record.json');
    // Only the file and the key are kept: the record's object graph stays out of the heap both
    // sides are timed in (see writeSignedRecord).
    const publicKeyPem = writeSignedRecord(file);
    const size = readFileSync(file).length;
    const options = { pinned: [publicKeyPem] };
    const check = verifyJson(readFileSync(file), options);
    if (check.verdict !== 'valid')
      throw new Error(`benchmark record did not verify: ${JSON.stringify(check.errors)}`);

    const [floor, full] = interleavedMedians([
      () => {
        const bytes = readFileSync(file);
        JSON.parse(bytes.toString('utf8'));
        createHash('sha256').update(bytes).digest('hex');
      },
      () => {
        const result = verifyJson(readFileSync(file), options);
        if (result.verdict !== 'valid') throw new Error('verdict changed during the benchmark');
      },
    ]);
    results.verify = {
      events: EVENTS,
      bytes: size,
      floor_ms: floor,
      verify_ms: full,
      ratio: full / floor,
    };
    console.log(
      '(b) verify a %s-event signed record (%s MB)',
      EVENTS.toLocaleString('en'),
      (size / 1e6).toFixed(1),
    );
    console.log(`    floor (read + JSON.parse + SHA-256)  ${fmt(floor)} ms`);
    console.log(
      `    runback verifyJson (read + verify)   ${fmt(full)} ms  (${fmt(size / 1e6 / (full / 1000))} MB/s)`,
    );
    console.log(
      `    ratio                                ${fmt(results.verify.ratio, 2)} × floor (limit 2.50, goal 1.50)\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes the signed benchmark record to `file` and returns its signer's public key (PEM). The
 * record object is dropped on return: kept alive while timing (as this benchmark once did, by
 * leaving it in scope), its 100,000 events sat in the heap of both sides, and V8 sized the heap
 * for the floor after whichever verify ran before it, moving the floor by about 150 ms
 * (docs/benchmarks.md, "Measuring").
 */
function writeSignedRecord(file) {
  const { record, publicKey } = makeSignedRecord(EVENTS);
  writeFileSync(file, JSON.stringify(record));
  return publicKeyToPem(publicKey);
}

// (c) recording overhead, (d) replay -------------------------------------------------------
await benchRecording(results);
await benchReplay(results);
await benchApi(results);
benchNesting(results);
benchDiff(results, EVENTS);

if (process.env.RUNBACK_BENCH_JSON)
  writeFileSync(process.env.RUNBACK_BENCH_JSON, JSON.stringify(results, null, 2) + '\n');
