// (e) The audit service over loopback, driven by autocannon against the built server
// (apps/api/dist/server.js, embedded SQLite in a temporary data directory):
//   - POST /api/audit/verify of a ~100 KB signed record: requests/s and p99, beside the same
//     record through the CLI's in-process verify (verifyJson), as a ratio;
//   - ingest of 100,000 events over 100 concurrent runs (batches of 100), then every run
//     finished, exported and verified, with event counts checked: none lost or duplicated.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { publicKeyToPem } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import autocannon from 'autocannon';
import { makeSignedRecord } from './make-record.js';
import { fmt, interleavedMedians } from './stats.js';

const SERVER_JS = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'apps',
  'api',
  'dist',
  'server.js',
);
const ADMIN = 'bench-admin-token';
const RUNS = Number(process.env.RUNBACK_BENCH_API_RUNS ?? 100);
const EVENTS = Number(process.env.RUNBACK_BENCH_API_EVENTS ?? 100_000);
const BATCH = 100;
const SECONDS = Number(process.env.RUNBACK_BENCH_API_SECONDS ?? 10);

function startServer(env) {
  const child = spawn(process.execPath, [SERVER_JS], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d.toString();
      const match = /runback api: (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

function toolEvent(i, extra) {
  return {
    schema_version: 1,
    span_id: `t${i}`,
    parent_span_id: 'run',
    ts_start: '2026-06-14T02:47:11.000Z',
    ts_end: '2026-06-14T02:47:11.004Z',
    type: 'tool',
    tool_name: 'lookup_order',
    tool_call_id: `call_${i}`,
    input: { i, ...extra },
    output: { status: 'shipped', carrier: 'ups', eta_days: i % 5 },
    latency_ms: 4,
    error: null,
  };
}

/** Runs section (e) and stores its figures in `results.api`. */
export async function benchApi(results) {
  const dir = mkdtempSync(join(tmpdir(), 'runback-bench-api-'));
  // About 220 events make a ~100 KB record.
  const { record, publicKey } = makeSignedRecord(220);
  const body = JSON.stringify(record);
  const keyFile = join(dir, 'producer.pub.pem');
  writeFileSync(keyFile, publicKeyToPem(publicKey));
  const server = await startServer({
    RUNBACK_DATA_DIR: join(dir, 'data'),
    RUNBACK_ADMIN_TOKEN: ADMIN,
    RUNBACK_PINNED_PUBKEYS: keyFile,
  });
  try {
    // Verify ------------------------------------------------------------------------------
    const check = await (
      await fetch(`${server.url}/api/audit/verify`, { method: 'POST', body })
    ).json();
    if (check.verdict !== 'valid')
      throw new Error(`bench record did not verify: ${JSON.stringify(check.errors)}`);
    const verify = await run({
      url: `${server.url}/api/audit/verify`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      connections: 10,
      duration: SECONDS,
      timeout: 60,
    });
    if (verify.non2xx !== 0 || verify.errors !== 0)
      throw new Error(`verify: ${verify.non2xx} non-2xx, ${verify.errors} errors`);
    const bytes = Buffer.from(body);
    const [inProcessMs] = await interleavedMedians(
      [() => verifyJson(bytes, { pinned: [publicKey] })],
      {
        runs: 51,
        warmup: 10,
      },
    );
    const api = {
      record_bytes: bytes.length,
      verify_rps: verify.requests.average,
      verify_p99_ms: verify.latency.p99,
      in_process_verify_per_s: 1000 / inProcessMs,
    };
    api.verify_ratio = api.verify_rps / api.in_process_verify_per_s;

    // Ingest ------------------------------------------------------------------------------
    const key = await (
      await fetch(`${server.url}/api/admin/api-keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ project: 'bench' }),
      })
    ).json();
    const auth = { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' };
    const runIds = [];
    for (let r = 0; r < RUNS; r++) {
      const res = await fetch(`${server.url}/api/runs`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: `bench-${r}` }),
      });
      runIds.push((await res.json()).run_id);
    }
    const batches = EVENTS / BATCH;
    const bodies = Array.from({ length: batches }, (_, n) =>
      JSON.stringify({ events: Array.from({ length: BATCH }, (_, i) => toolEvent(i, { n })) }),
    );
    let next = 0;
    const t0 = performance.now();
    const ingest = await run({
      url: server.url,
      connections: RUNS,
      amount: batches,
      // A timed-out batch would be sent again by nobody: allow for a loaded machine.
      timeout: 120,
      requests: [
        {
          setupRequest: (req) => {
            const n = next++;
            return {
              ...req,
              method: 'POST',
              path: `/api/runs/${runIds[n % RUNS]}/events`,
              headers: { ...auth, 'idempotency-key': `batch-${n}` },
              body: bodies[n],
            };
          },
        },
      ],
    });
    const ingestMs = performance.now() - t0;
    if (ingest.non2xx !== 0 || ingest.errors !== 0)
      throw new Error(`ingest: ${ingest.non2xx} non-2xx, ${ingest.errors} errors`);

    const pem = await (await fetch(`${server.url}/.well-known/runback-audit-key.pem`)).text();
    const perRun = EVENTS / RUNS + 2;
    let checked = 0;
    const t1 = performance.now();
    for (const runId of runIds) {
      const fin = await fetch(`${server.url}/api/runs/${runId}/finish`, {
        method: 'POST',
        headers: auth,
        body: '{"status":"success"}',
      });
      if (fin.status !== 200) throw new Error(`finish ${runId}: ${fin.status}`);
      const text = await (
        await fetch(`${server.url}/api/runs/${runId}/export`, { headers: auth })
      ).text();
      const result = verifyJson(text, { pinned: [pem] });
      if (result.verdict !== 'valid') throw new Error(`export of ${runId} is ${result.verdict}`);
      const { events } = JSON.parse(text);
      const ids = new Set(
        events.filter((e) => e.type === 'tool').map((e) => `${e.input.n}/${e.input.i}`),
      );
      if (events.length !== perRun || ids.size !== perRun - 2) {
        throw new Error(
          `run ${runId}: expected ${perRun} events, ${perRun - 2} distinct, got ${events.length}, ${ids.size}`,
        );
      }
      checked += ids.size;
    }
    const sealMs = performance.now() - t1;
    if (checked !== EVENTS) throw new Error(`expected ${EVENTS} events back, got ${checked}`);
    Object.assign(api, {
      ingest_events: EVENTS,
      ingest_runs: RUNS,
      ingest_ms: ingestMs,
      ingest_events_per_s: EVENTS / (ingestMs / 1000),
      ingest_p99_ms: ingest.latency.p99,
      seal_export_verify_ms: sealMs,
    });
    results.api = api;

    console.log(`(e) the audit service over loopback (autocannon, SQLite, ${SECONDS} s per load)`);
    console.log(
      `    POST /api/audit/verify, ${(bytes.length / 1e3).toFixed(0)} KB record  ${fmt(api.verify_rps, 0)} req/s, p99 ${api.verify_p99_ms} ms`,
    );
    console.log(
      `    in-process verifyJson, same record    ${fmt(api.in_process_verify_per_s, 0)} /s`,
    );
    console.log(
      `    ratio                                 ${fmt(api.verify_ratio, 2)} × in-process`,
    );
    console.log(
      `    ingest ${EVENTS.toLocaleString('en')} events, ${RUNS} runs       ${fmt(api.ingest_events_per_s, 0)} events/s (${fmt(ingestMs / 1000, 2)} s, p99 ${api.ingest_p99_ms} ms per batch of ${BATCH})`,
    );
    console.log(
      `    finish + export + verify every run   ${fmt(sealMs / 1000, 2)} s; every export valid, no event lost or duplicated\n`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
