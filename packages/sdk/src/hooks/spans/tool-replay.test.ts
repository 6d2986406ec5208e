// What a replay does with tool() bodies: `tools: 'recorded'` (the default) serves the recorded
// output and gives back the calls recorded inside the body; `tools: 'live'` runs the body with
// its own calls answered from the record, so a changed implementation diverges at that tool.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { record } from '../../recorder/recorder.js';
import { replay } from '../../recorder/replay.js';
import { llmCall, type LlmCallOutcome } from './llm.js';
import { tool } from './tool.js';

/** A rate service that counts its requests, and a way to stop it. */
async function rateService(): Promise<{
  url: string;
  hits: () => number;
  stop: () => Promise<void>;
}> {
  let hits = 0;
  const server = createServer((_, res) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    res.end('{"rate":0.042,"currency":"EUR"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rate`;
  return {
    url,
    hits: () => hits,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The quote tool as first written (119 for 99), and as changed later (another rate: 124). */
const quoteV1 = (input: { amount: number }) => ({ total: Math.round(input.amount * 1.2) });
const quoteV2 = (input: { amount: number }) => ({ total: Math.round(input.amount * 1.25) });

/** An agent that asks its quote tool, then puts the tool's answer into a model prompt. */
function quoting(impl: (input: { amount: number }) => { total: number }, bodies: { runs: number }) {
  return async () => {
    const quote = await tool('quote', { amount: 99 }, (input) => {
      bodies.runs++;
      return impl(input);
    });
    const answer = await llmCall(
      {
        provider: 'openai',
        modelId: 'gpt-4o-mini',
        request: { messages: [{ role: 'user', content: `Quote: ${JSON.stringify(quote)}` }] },
      },
      async () => ({ text: 'send it' }),
      (r): LlmCallOutcome => ({
        response: { text: r.text, finish_reason: 'stop', tool_calls: [] },
      }),
      (recorded) => ({ text: recorded.response.text ?? '' }),
    );
    return { quote, answer: answer.text };
  };
}

describe('tool() bodies in a replay', () => {
  it('recorded (the default): a changed tool implementation still reproduces, and the report says its body did not run', async () => {
    const path = join(tempDir(), 'quote.json');
    await record({ name: 'quote', out: path }, quoting(quoteV1, { runs: 0 }));
    const bodies = { runs: 0 };
    const { report, output } = await replay({ path }, quoting(quoteV2, bodies));
    expect(report.status).toBe('reproduced');
    expect(report.tools).toBe('recorded');
    expect(report.toolCalls).toBe(1);
    expect(bodies.runs).toBe(0);
    expect(output).toEqual({ quote: { total: 119 }, answer: 'send it' });
  });

  it('live: the changed tool is the divergence, named, with its output diff; the program gets the live result', async () => {
    const path = join(tempDir(), 'quote.json');
    await record({ name: 'quote', out: path }, async () => ({
      quote: await tool('quote', { amount: 99 }, quoteV1, { toolCallId: 'call_q1' }),
    }));
    const bodies = { runs: 0 };
    const changed = async () => ({
      quote: await tool(
        'quote',
        { amount: 99 },
        (input: { amount: number }) => {
          bodies.runs++;
          return quoteV2(input);
        },
        { toolCallId: 'call_q1' },
      ),
    });
    const { report, output, result } = await replay({ path }, changed, { tools: 'live' });
    expect(bodies.runs).toBe(1);
    expect(output).toEqual({ quote: { total: 124 } });
    expect(report).toMatchObject({ status: 'diverged', tools: 'live', toolCalls: 1 });
    expect(report.divergence).toMatchObject({
      call: 1,
      kind: 'tool',
      name: 'quote',
      reason: 'output',
      input: [],
      output: [{ op: 'replace', path: '/total', before: 119, after: 124 }],
    });
    const events = (result.record?.events ?? []) as Record<string, unknown>[];
    const replayedTool = events.find((e) => e['type'] === 'tool');
    expect(replayedTool).toMatchObject({ tool_call_id: 'call_q1', output: { total: 124 } });
    expect(events[0]?.['metadata']).toMatchObject({
      replay_of: { tools: 'live' },
    });
    // The same replay with recorded tools reproduces: only running the body shows the change.
    expect((await replay({ path }, changed)).report.status).toBe('reproduced');
  });

  it('live: when the changed result flows into a model prompt, the miss is reported and the tool is its first departure', async () => {
    const path = join(tempDir(), 'quote.json');
    await record({ name: 'quote', out: path }, quoting(quoteV1, { runs: 0 }));
    const { report } = await replay({ path }, quoting(quoteV2, { runs: 0 }), { tools: 'live' });
    expect(report.status).toBe('diverged');
    expect(report.divergence).toMatchObject({
      call: 2,
      kind: 'llm',
      reason: 'miss',
      departure: { call: 1, kind: 'tool', name: 'quote', reason: 'output' },
    });
  });

  it('live: an unchanged tool whose body fetches and reads the clock and randomness reproduces byte for byte with its service stopped', async () => {
    const service = await rateService();
    const bodies = { runs: 0 };
    const agent = async () => {
      const priced = await tool('price', { sku: 'A-1' }, async () => {
        bodies.runs++;
        const rate = (await (await fetch(service.url)).json()) as {
          rate: number;
          currency: string;
        };
        return { at: Date.now(), jitter: Math.random(), rate };
      });
      return { priced, after: Date.now() };
    };
    const path = join(tempDir(), 'price.json');
    const recorded = await record({ name: 'price', out: path, captureEnv: true }, agent);
    expect(service.hits()).toBe(1);
    await service.stop();

    for (const tools of ['live', 'recorded'] as const) {
      bodies.runs = 0;
      const { report, output, result } = await replay({ path }, agent, { tools });
      expect(report.status, tools).toBe('reproduced');
      expect(JSON.stringify(output)).toBe(JSON.stringify(recorded.output));
      expect(bodies.runs).toBe(tools === 'live' ? 1 : 0);
      // Either way the body's reads are kept with the replayed tool call, as recorded; the
      // agent's own read is an env event.
      const events = (result.record?.events ?? []) as Record<string, unknown>[];
      const kinds = (reads: unknown) => (reads as { kind: string }[]).map((read) => read.kind);
      expect(kinds(events.find((e) => e['type'] === 'tool')?.['body_env'])).toEqual([
        'fetch',
        'now',
        'random',
      ]);
      expect(events.filter((e) => e['type'] === 'env').map((e) => e['kind'])).toEqual(['now']);
    }
    expect(service.hits()).toBe(1);
  });

  it('live: concurrent tool bodies each get their own recorded reads, whichever fetch answers first', async () => {
    // The slow lookup is asked first and answers last, and each body then reads the clock and a
    // random number: the reads interleave, and each body must get back its own.
    const server = createServer((req, res) => {
      const delay = req.url === '/slow' ? 60 : 5;
      setTimeout(() => res.end(req.url), delay);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const lookup = (path: string) =>
      tool('lookup', { path }, async () => {
        const body = await (await fetch(`${base}${path}`)).text();
        return { body, at: Date.now(), draw: Math.random() };
      });
    const agent = () => Promise.all([lookup('/slow'), lookup('/fast')]);
    const path = join(tempDir(), 'concurrent.json');
    const recorded = await record({ name: 'concurrent', out: path, captureEnv: true }, agent);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const [slow, fast] = recorded.output;
    expect(slow?.draw).not.toBe(fast?.draw);

    const { report, output } = await replay({ path }, agent, { tools: 'live' });
    expect(report.status).toBe('reproduced');
    expect(JSON.stringify(output)).toBe(JSON.stringify(recorded.output));
  });

  it('a tool() nested inside another tool body reproduces in both modes', async () => {
    const runs = { outer: 0, inner: 0 };
    const nested = () =>
      tool('get_file', { id: 'A-1' }, async () => {
        runs.outer++;
        const bureau = await tool('bureau', { id: 'A-1' }, () => {
          runs.inner++;
          return { score: 712 };
        });
        return { ...bureau, income: 52_000 };
      });
    const path = join(tempDir(), 'nested.json');
    await record({ name: 'nested', out: path }, nested);
    for (const tools of ['recorded', 'live'] as const) {
      runs.outer = runs.inner = 0;
      const { report, output, result } = await replay({ path }, nested, { tools });
      expect(report.status, tools).toBe('reproduced');
      expect(report.toolCalls).toBe(2);
      expect(output).toEqual({ score: 712, income: 52_000 });
      expect(runs).toEqual(tools === 'live' ? { outer: 1, inner: 1 } : { outer: 0, inner: 0 });
      const events = (result.record?.events ?? []) as Record<string, unknown>[];
      const outer = events.find((e) => e['tool_name'] === 'get_file');
      const inner = events.find((e) => e['tool_name'] === 'bureau');
      expect(inner?.['parent_span_id']).toBe(outer?.['span_id']);
    }
  });

  it('tools running at once keep their own reads: both modes reproduce whatever order they end in', async () => {
    // `quick` starts while `slow` runs and ends first; each body reads the clock and a random
    // number after its wait, so their reads interleave. Each tool keeps its own.
    const agent = () =>
      Promise.all([
        tool('slow', { id: 1 }, async () => {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return { at: Date.now(), draw: Math.random() };
        }),
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return tool('quick', { id: 2 }, () => ({ at: Date.now(), draw: Math.random() }));
        })(),
      ]);
    const path = join(tempDir(), 'overlap.json');
    const recorded = await record({ name: 'overlap', out: path, captureEnv: true }, agent);
    const events = JSON.parse(readFileSync(path, 'utf8')).events as Record<string, unknown>[];
    const seqOf = (name: string) => events.find((e) => e['tool_name'] === name)?.['seq'] as number;
    const indexOf = (name: string) => events.findIndex((e) => e['tool_name'] === name);
    // The overlap the test is about: quick started after slow and ended before it.
    expect(seqOf('quick')).toBeGreaterThan(seqOf('slow'));
    expect(indexOf('quick')).toBeLessThan(indexOf('slow'));
    for (const tools of ['recorded', 'live'] as const) {
      const { report, output } = await replay({ path }, agent, { tools });
      expect(report.status, tools).toBe('reproduced');
      expect(output).toEqual(recorded.output);
    }
  });

  it('live: a body that now reads more than the record holds stops at that tool with a replay miss', async () => {
    const agent = (draws: number) => async () =>
      tool('draw', { n: draws }, () => Array.from({ length: draws }, () => Math.random()), {
        keyProjection: { drop: ['n'] },
      });
    const path = join(tempDir(), 'draw.json');
    await record({ name: 'draw', out: path, captureEnv: true }, agent(1));
    const { report, error } = await replay({ path }, agent(2), { tools: 'live' });
    expect(error).toMatchObject({ code: 'REPLAY_MISS', name: 'ReplayMissError' });
    expect(report.status).toBe('diverged');
    expect(report.divergence).toMatchObject({
      call: 1,
      kind: 'tool',
      name: 'draw',
      reason: 'miss',
      message:
        'strict replay: the body of tool "draw", run live, made a random read that the record does not hold for that tool call; expected only the reads it made when recorded, got one more',
    });
  });

  it('refuses a tools option that is neither recorded nor live', async () => {
    const path = join(tempDir(), 'quote.json');
    await record({ name: 'quote', out: path }, quoting(quoteV1, { runs: 0 }));
    await expect(
      replay({ path }, quoting(quoteV1, { runs: 0 }), { tools: 'run' as never }),
    ).rejects.toMatchObject({
      code: 'ARG_INVALID',
      message: expect.stringContaining('options.tools'),
    });
  });
});
