// `pnpm bench`: speed goals as side-by-side ratios measured in one run (never in unit tests).
//   (a) canonical vs the npm `canonicalize` package on a realistic agent record, output equal;
//   (b) verifying a 100k-event signed record vs the floor of the same file (read + JSON.parse +
//       one SHA-256), as a table: member orders, indentation, streaming, the CLI process, RSS;
//   (c) the recorder's overhead per llm + tool pair vs the bare calls, and journaling's cost;
//   (d) replaying a 10,000-call record: time and peak heap;
//   (e) the audit service over loopback: verify requests/s and p99, ingest of 100k events;
//   (f) verifying an 8 MiB record of adversarially nested inputs vs JSON.parse + one SHA-256;
//   (g) `runback diff` of two 100k-event records in its own process: time and peak RSS.
// Then every measured figure against its limit (bench/limits.js).
//
// Options: --only=b,f runs those sections alone; --check exits 1 when a figure is over its
// limit (and says which). RUNBACK_BENCH_EVENTS sets the record size, RUNBACK_BENCH_JSON=FILE
// also writes the figures as JSON.
import { writeFileSync } from 'node:fs';
import { cpus as listCpus } from 'node:os';
import { canonical } from '@runback/canonical';
import canonicalize from 'canonicalize';
import { benchApi } from './api.js';
import { benchDiff } from './diff.js';
import { makeSignedRecord } from './make-record.js';
import { benchNesting } from './nesting.js';
import { benchRecording } from './recording.js';
import { benchReplay } from './replay.js';
import { reportLimits } from './limits.js';
import { benchVerify } from './verify.js';
import { fmt, interleavedMedians } from './stats.js';

const SECTIONS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
const args = process.argv.slice(2);
const check = args.includes('--check');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg === undefined ? SECTIONS : onlyArg.slice('--only='.length).split(',');
const unknown = [
  ...args.filter((a) => a !== '--check' && !a.startsWith('--only=')),
  ...only.filter((s) => !SECTIONS.includes(s)),
];
if (unknown.length > 0) {
  console.error(
    `bench: unknown ${unknown.map((u) => JSON.stringify(u)).join(', ')} (expected --check and --only=${SECTIONS.join(',')})`,
  );
  process.exit(64);
}
const runs = (section) => only.includes(section);

const EVENTS = Number(process.env.RUNBACK_BENCH_EVENTS ?? 100_000);
const results = {};

if (typeof globalThis.gc !== 'function')
  console.warn(
    'note: run with node --expose-gc (pnpm bench does) to collect the heap between timed runs',
  );
// Ratios move with the host (a native JSON.parse against a JavaScript pass), so each run says
// what it ran on.
const cpus = listCpus();
console.log(
  `runback bench — node ${process.version}, ${EVENTS.toLocaleString('en')} events, ` +
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}\n`,
);

// (a) canonical throughput ----------------------------------------------------------------
if (runs('a')) {
  const { record } = makeSignedRecord(2_000);
  const ours = canonical(record);
  const theirs = canonicalize(record);
  if (ours !== theirs)
    throw new Error('canonical and canonicalize disagree on the benchmark record');
  const mb = Buffer.byteLength(ours) / 1e6;
  const [tOurs, tTheirs] = await interleavedMedians(
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

// (b) verify vs floor, a table of rows (bench/verify.js) ----------------------------------
if (runs('b')) await benchVerify(results, EVENTS);

// (c) recording overhead, (d) replay, (e) the audit service, (f) nesting, (g) diff ----------
if (runs('c')) await benchRecording(results);
if (runs('d')) await benchReplay(results);
if (runs('e')) await benchApi(results);
if (runs('f')) await benchNesting(results);
if (runs('g')) benchDiff(results, EVENTS);

if (process.env.RUNBACK_BENCH_JSON)
  writeFileSync(process.env.RUNBACK_BENCH_JSON, JSON.stringify(results, null, 2) + '\n');

const over = reportLimits(results);
if (over.length > 0) {
  console.log(
    `\n${over.length} figure(s) over the limit: ${over.map((r) => `${r.section} ${r.what}`).join('; ')}`,
  );
  if (check) process.exitCode = 1;
} else if (check) console.log('\nevery measured figure is within its limit');
