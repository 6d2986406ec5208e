// (d) Replay: re-executing a recorded 10,000-call run against its record. An agent loop of
// model calls and tool calls is recorded once, then replayed in strict mode (every call served
// by key from the cassette, the replayed run recorded and its digests compared); time and the
// peak heap above the starting point are reported, the peak as a multiple of the record's size
// on disk (limit 3×) and the replay's time beside the recording's.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { llmCall, record, replay, tool } from '@runback/sdk';

const collect = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

/** An agent making `calls` calls: alternately a model call and a tool call. */
function agent(calls) {
  return async () => {
    let total = 0;
    for (let i = 0; i < calls / 2; i++) {
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
    runs.sort((a, b) => a.ms - b.ms);
    const median = runs[Math.floor(runs.length / 2)];
    results.replay = {
      calls,
      record_ms: recorded.ms,
      replay_ms: median.ms,
      replay_us_per_call: (median.ms / calls) * 1000,
      replay_peak_heap_mb: Math.max(...runs.map((r) => r.peakMb)),
      record_mb: recordBytes / 1e6,
    };
    results.replay.heap_vs_record = results.replay.replay_peak_heap_mb / results.replay.record_mb;
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
      `    peak heap above start                ${f(r.replay_peak_heap_mb)} MB  = ${r.heap_vs_record.toFixed(1)} × the record (limit 3)\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
