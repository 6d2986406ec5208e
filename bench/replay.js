// (d) Replay: re-executing a recorded 10,000-call run against its record. An agent loop of
// model calls and tool calls is recorded once, then replayed in strict mode (every call served
// by key from the cassette, the replayed run recorded and its digests compared); time and the
// heap above the starting point are reported as multiples of the record's size on disk, and the
// replay's time beside the recording's.
//
// Two heap figures, because heapUsed counts garbage not yet collected as well as live objects:
// - sampled: the highest heapUsed seen by a 5 ms timer (and at the end) during the timed runs.
//   The timer fires only when the event loop is idle, and the figure includes whatever garbage
//   the young and old generations hold at that moment, so it says more about V8's collection
//   schedule (a young generation of up to 16 MB of garbage, old-space garbage awaiting a major
//   GC) than about what the replay keeps.
// - peak live: in one more replay, not timed, heapUsed right after each full mark-compact GC,
//   which is the live heap at that instant. v8.GCProfiler reports the heap statistics V8 takes
//   synchronously after every GC (node ≥ 18.15). For that replay V8's --gc-global is set, which
//   makes every collection a full one: each time the young generation fills up, wherever the
//   replay is (verification and end() included, where the agent cannot look), is a reading.
//   The agent also forces a full GC every PROBE_EVERY calls (--expose-gc), so readings are
//   spaced through the run whatever the allocation rate; the last reading is taken after
//   replay() returned, with its result (and the replayed run's record) still held. The figure
//   is the highest reading: exact at each, a lower bound on the peak between two of them.
// The limit (3×, bench/limits.js) applies to the peak live heap: it is what a replay needs in
// memory; the sampled figure is shown beside it.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { GCProfiler, setFlagsFromString } from 'node:v8';
import { llmCall, record, replay, tool } from '@runback/sdk';

const collect = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};
/** Calls between two forced full GCs in the peak-live-heap replay. */
const PROBE_EVERY = 500;

/**
 * An agent making `calls` calls: alternately a model call and a tool call; `probe` is called
 * before every PROBE_EVERY-th call and at the end.
 */
function agent(calls, probe = () => {}) {
  return async () => {
    let total = 0;
    for (let i = 0; i < calls / 2; i++) {
      if ((2 * i) % PROBE_EVERY === 0) probe();
      const reply = await llmCall(
        {
          provider: 'openai',
          modelId: 'gpt-4o-mini',
          request: {
            messages: [{ role: 'user', content: `step ${i}: what next?` }],
            params: { temperature: 0 },
          },
        },
        async () => ({ text: `call tool ${i}` }),
        (r) => ({
          response: { text: r.text, finish_reason: 'stop', tool_calls: [] },
          usage: { input_tokens: 12, output_tokens: 4, total_tokens: 16 },
        }),
        (recorded) => ({ text: recorded.response.text }),
      );
      const result = await tool('lookup', { i, ask: reply.text }, async ({ i: n }) => ({
        n,
        value: n * 2,
      }));
      total += result.value;
    }
    probe();
    return { total };
  };
}

/** Peak heap use while `fn` runs, sampled every 5 ms, above the heap at the start. */
async function withPeakHeap(fn) {
  collect();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const t = performance.now();
  const value = await fn();
  const ms = performance.now() - t;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { value, ms, peakMb: (peak - base) / 1e6 };
}

/**
 * The peak live heap of one replay above the live heap at its start (see the head comment), or
 * undefined where this node has no GCProfiler or no --expose-gc.
 */
async function peakLiveHeap(path, calls) {
  if (typeof globalThis.gc !== 'function' || typeof GCProfiler !== 'function') return undefined;
  collect();
  collect();
  const base = process.memoryUsage().heapUsed;
  const profiler = new GCProfiler();
  // A node whose V8 refuses flags after start-up still gets the forced readings.
  const everyGcFull = trySetFlag('--gc-global');
  profiler.start();
  let outcome;
  let retained;
  let statistics;
  try {
    outcome = await replay({ path }, agent(calls, collect));
    collect();
    retained = process.memoryUsage().heapUsed;
  } finally {
    ({ statistics } = profiler.stop());
    if (everyGcFull) trySetFlag('--no-gc-global');
  }
  if (outcome.report.status !== 'reproduced') throw new Error('the benchmark replay diverged');
  const afterFull = statistics
    .filter((s) => s.gcType === 'MarkSweepCompact')
    .map((s) => s.afterGC.heapStatistics.usedHeapSize);
  return {
    peakMb: (Math.max(retained, ...afterFull) - base) / 1e6,
    retainedMb: (retained - base) / 1e6,
    readings: afterFull.length,
    everyGcFull,
  };
}

function trySetFlag(flag) {
  try {
    setFlagsFromString(flag);
    return true;
  } catch {
    return false;
  }
}

/** Runs section (d) and stores its figures in `results.replay`. */
export async function benchReplay(results, { calls = 10_000, rounds = 3 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'runback-bench-replay-'));
  try {
    const path = join(dir, 'record.json');
    const recorded = await withPeakHeap(() =>
      record({ name: 'bench-agent', out: path }, agent(calls)),
    );
    const recordBytes = statSync(path).size;
    const runs = [];
    for (let round = 0; round < rounds; round++) {
      const r = await withPeakHeap(() => replay({ path }, agent(calls)));
      if (r.value.report.status !== 'reproduced') {
        throw new Error(
          `the benchmark replay diverged: ${JSON.stringify(r.value.report.divergence)}`,
        );
      }
      runs.push(r);
    }
    const live = await peakLiveHeap(path, calls);
    runs.sort((a, b) => a.ms - b.ms);
    const median = runs[Math.floor(runs.length / 2)];
    results.replay = {
      calls,
      record_ms: recorded.ms,
      replay_ms: median.ms,
      replay_us_per_call: (median.ms / calls) * 1000,
      replay_peak_heap_mb: Math.max(...runs.map((r) => r.peakMb)),
      record_mb: recordBytes / 1e6,
      replay_live_heap_mb: live?.peakMb,
      replay_retained_heap_mb: live?.retainedMb,
    };
    results.replay.heap_vs_record = results.replay.replay_peak_heap_mb / results.replay.record_mb;
    if (live !== undefined)
      results.replay.live_heap_vs_record = live.peakMb / results.replay.record_mb;
    const r = results.replay;
    const f = (n) => n.toFixed(1).padStart(8);
    console.log(
      `(d) replay of a ${calls.toLocaleString('en')}-call record (strict; median of ${rounds})`,
    );
    console.log(`    record the run once                  ${f(r.record_ms)} ms`);
    console.log(
      `    replay: verify, serve, re-record     ${f(r.replay_ms)} ms  (${r.replay_us_per_call.toFixed(1)} µs per call)`,
    );
    console.log(`    replay / recording time              ${f(r.replay_ms / r.record_ms)} ×`);
    console.log(`    record on disk                       ${f(r.record_mb)} MB`);
    console.log(
      `    heap above start, sampled (+garbage) ${f(r.replay_peak_heap_mb)} MB  = ${r.heap_vs_record.toFixed(1)} × the record`,
    );
    if (live === undefined) {
      console.log('    peak live heap: needs node --expose-gc and v8.GCProfiler\n');
    } else {
      console.log(
        `    peak live heap above start           ${f(live.peakMb)} MB  = ${r.live_heap_vs_record.toFixed(1)} × the record (limit 3; ${live.readings} full GCs${live.everyGcFull ? '' : ', --gc-global refused'})`,
      );
      console.log(
        `    live after replay(), result held     ${f(live.retainedMb)} MB  = ${(live.retainedMb / r.record_mb).toFixed(1)} × the record\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
