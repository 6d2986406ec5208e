// (c) Recording overhead: what the recorder adds to an agent's model and tool calls.
// Each round runs the same agent loop of PAIRS (llm call + tool call) pairs bare and recorded,
// interleaved, and the overhead per pair is (recorded - bare) / PAIRS. Journaling (one fsynced
// line per event) is measured separately: it is bounded by the disk, not by runback.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { llmCall, startRun, tool } from '@runback/sdk';

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

async function loop(pairs, step) {
  for (let i = 0; i < pairs; i++) await step(i);
}

async function timed(fn) {
  collect();
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/** Runs section (c) and stores its figures in `results.recording`. */
export async function benchRecording(results, { pairs = 5_000, rounds = 9, warmup = 2 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'runback-bench-rec-'));
  try {
    const bare = [];
    const recorded = [];
    const ends = [];
    for (let round = 0; round < warmup + rounds; round++) {
      const tBare = await timed(() => loop(pairs, barePair));
      const run = startRun({ name: 'bench', redact: {} });
      const tRec = await timed(() => run.run(() => loop(pairs, recordedPair)));
      const tEnd = await timed(() => run.end({ output: 'done' }));
      if (round >= warmup) {
        bare.push(tBare);
        recorded.push(tRec);
        ends.push(tEnd);
      }
    }
    const overheadUs = ((median(recorded) - median(bare)) / pairs) * 1000;

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
      `    overhead per pair                    ${f(r.overhead_us_per_pair)} µs  (goal < 50)`,
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
