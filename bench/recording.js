// (c) Recording overhead: what the recorder adds to an agent's model and tool calls.
// Each round runs the same agent loop of PAIRS (llm call + tool call) pairs bare, recorded, and
// through a minimal recorder (each event's canonical text, one SHA-256, kept in an array: the
// floor of any hash-chained recorder), interleaved; the overhead per pair is
// (recorded - bare) / PAIRS, printed against its limit and beside the floor's, whose ratio moves
// less than absolute times on a loaded machine. Journaling (one fsynced line per event) is
// measured separately: it is bounded by the disk, not by runback.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { canonical } from '@runback/canonical';
import { llmCall, startRun, tool } from '@runback/sdk';
import { median } from './stats.js';

const collect = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

const SYSTEM = 'You are a loan officer. '.repeat(12);
const request = (i) => ({
  system: SYSTEM,
  messages: [
    { role: 'user', content: `Decide on the loan for applicant A-${1000 + i}: 25000 EUR.` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${i}`, name: 'get_credit_score' }],
    },
    { role: 'tool', content: JSON.stringify({ score: 742, bureau: 'mock-bureau' }) },
  ],
  tools: [
    {
      name: 'get_credit_score',
      parameters: { type: 'object', properties: { applicant_id: { type: 'string' } } },
    },
  ],
  params: { temperature: 0, max_tokens: 256 },
});
const completion = (i) => ({
  id: `chatcmpl-${i}`,
  choices: [
    {
      message: { role: 'assistant', content: '{"decision":"approve","reason":"score 742"}' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 428, completion_tokens: 24, total_tokens: 452 },
});
const toOutcome = (c) => ({
  response: { text: c.choices[0].message.content, finish_reason: 'stop', tool_calls: [] },
  usage: { input_tokens: 428, output_tokens: 24, total_tokens: 452 },
  metadata: { response_id: c.id },
});
const creditScore = async (input) => ({ applicant_id: input.applicant_id, score: 742 });

/** One agent step done bare: a (simulated, instant) model call and a tool call. */
async function barePair(i) {
  request(i);
  const c = await Promise.resolve(completion(i));
  await creditScore({ applicant_id: `A-${i}` });
  return c;
}

/** The same step recorded. */
async function recordedPair(i) {
  const c = await llmCall(
    { provider: 'openai', modelId: 'gpt-4o-mini', request: request(i) },
    () => Promise.resolve(completion(i)),
    toOutcome,
  );
  await tool('get_credit_score', { applicant_id: `A-${i}` }, creditScore);
  return c;
}

/** The same step through the minimal recorder: canonical text, one SHA-256, push, per event. */
function floorPair(kept) {
  const keep = (event) => {
    const text = canonical(event);
    kept.push({ text, hash: createHash('sha256').update(text).digest('hex') });
  };
  return async (i) => {
    const req = request(i);
    const c = await Promise.resolve(completion(i));
    keep({ type: 'llm', seq: 2 * i, request: req, ...toOutcome(c) });
    const input = { applicant_id: `A-${i}` };
    const output = await creditScore(input);
    keep({ type: 'tool', seq: 2 * i + 1, tool_name: 'get_credit_score', input, output });
    return c;
  };
}

async function loop(pairs, step) {
  for (let i = 0; i < pairs; i++) await step(i);
}

async function timed(fn) {
  collect();
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** The limit on the overhead per pair (bench/limits.js holds the run to it). */
const OVERHEAD_LIMIT_US = 50;

/** Runs section (c) and stores its figures in `results.recording`. */
export async function benchRecording(results, { pairs = 5_000, rounds = 9, warmup = 2 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'runback-bench-rec-'));
  try {
    const bare = [];
    const recorded = [];
    const floor = [];
    const ends = [];
    for (let round = 0; round < warmup + rounds; round++) {
      const tBare = await timed(() => loop(pairs, barePair));
      const tFloor = await timed(() => loop(pairs, floorPair([])));
      const run = startRun({ name: 'bench', redact: {} });
      const tRec = await timed(() => run.run(() => loop(pairs, recordedPair)));
      const tEnd = await timed(() => run.end({ output: 'done' }));
      if (round >= warmup) {
        bare.push(tBare);
        recorded.push(tRec);
        floor.push(tFloor);
        ends.push(tEnd);
      }
    }
    const overheadUs = ((median(recorded) - median(bare)) / pairs) * 1000;
    const floorUs = ((median(floor) - median(bare)) / pairs) * 1000;

    // Journaling: the same loop with every event fsynced to the journal as it completes.
    const journalPairs = Math.min(pairs, 300);
    const memory = [];
    const journaled = [];
    for (let round = 0; round < 5; round++) {
      const a = startRun({ name: 'bench' });
      memory.push(await timed(() => a.run(() => loop(journalPairs, recordedPair))));
      await a.end();
      const out = join(dir, `journal-${round}.json`);
      const b = startRun({ name: 'bench', out, journal: true });
      journaled.push(await timed(() => b.run(() => loop(journalPairs, recordedPair))));
      await b.end();
    }
    const journalUsPerEvent = ((median(journaled) - median(memory)) / (journalPairs * 2)) * 1000;

    results.recording = {
      pairs,
      bare_us_per_pair: (median(bare) / pairs) * 1000,
      recorded_us_per_pair: (median(recorded) / pairs) * 1000,
      overhead_us_per_pair: overheadUs,
      overhead_limit_us: OVERHEAD_LIMIT_US,
      floor_overhead_us_per_pair: floorUs,
      overhead_vs_floor: overheadUs / floorUs,
      seal_and_end_ms: median(ends),
      journal_us_per_event: journalUsPerEvent,
    };
    const r = results.recording;
    const f = (n) => n.toFixed(1).padStart(8);
    console.log(
      `(c) recording overhead, ${pairs.toLocaleString('en')} llm + tool pairs per round (median of ${rounds})`,
    );
    console.log(`    bare call pair                       ${f(r.bare_us_per_pair)} µs`);
    console.log(`    recorded pair (memory)               ${f(r.recorded_us_per_pair)} µs`);
    console.log(
      `    overhead per pair                    ${f(r.overhead_us_per_pair)} µs  = ${(r.overhead_us_per_pair / OVERHEAD_LIMIT_US).toFixed(2)} × the limit of ${OVERHEAD_LIMIT_US} µs (goal 20)`,
    );
    console.log(
      `    minimal recorder (canonical + SHA-256) ${f(r.floor_overhead_us_per_pair)} µs  runback = ${r.overhead_vs_floor.toFixed(2)} × this floor`,
    );
    console.log(
      `    end(): seal, sign-free, build record ${f(r.seal_and_end_ms)} ms for ${(pairs * 2 + 2).toLocaleString('en')} events`,
    );
    console.log(
      `    journaling (fsync per event)         ${f(r.journal_us_per_event)} µs per event extra\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
