// How replay() holds a record: verified once, read once from the verified text, its events
// parsed when served; the replayed run's events parsed only when read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { llmCall, type LlmCallOutcome } from '../hooks/spans/llm.js';
import { tool } from '../hooks/spans/tool.js';
import { record } from './recorder.js';
import { checkRecordForReplay, replay } from './replay.js';

/** An agent asking a model, then a tool with the model's answer, `steps` times. */
function agent(steps: number, prompt = (i: number) => `step ${i}`) {
  return async () => {
    const seen: unknown[] = [];
    for (let i = 0; i < steps; i++) {
      const reply = await llmCall(
        {
          provider: 'openai',
          modelId: 'gpt-4o-mini',
          request: { messages: [{ role: 'user', content: prompt(i) }] },
        },
        async () => ({ text: `look up ${i}` }),
        (r): LlmCallOutcome => ({
          response: { text: r.text, finish_reason: 'stop', tool_calls: [] },
        }),
        (recorded) => ({ text: recorded.response.text ?? '' }),
      );
      seen.push(
        reply.text,
        await tool('lookup', { i, ask: reply.text }, async () => ({ i, ok: true })),
      );
    }
    return { seen };
  };
}

async function recorded(steps: number): Promise<{ path: string; bytes: Uint8Array }> {
  const path = join(tempDir(), 'run.json');
  await record({ name: 'agent', out: path }, agent(steps));
  return { path, bytes: readFileSync(path) };
}

describe('a record loaded for replay', () => {
  it('serves the bytes that were verified, though the caller changes its buffer afterwards', async () => {
    const { bytes } = await recorded(3);
    const text = new TextDecoder().decode(bytes);
    // The same length, other answers: were these served, the agent would return "LOOK UP".
    const tampered = new TextEncoder().encode(text.replaceAll('look up', 'LOOK UP'));
    expect(tampered.length).toBe(bytes.length);
    const given = bytes.slice();
    const outcome = await replay(given, async () => {
      given.set(tampered);
      return agent(3)();
    });
    expect(outcome.report.status).toBe('reproduced');
    expect(JSON.stringify(outcome.output)).toContain('look up 2');
    expect(JSON.stringify(outcome.output)).not.toContain('LOOK UP');
  });

  it('reads the run, its start and end, its providers and calls without parsing every event up front', async () => {
    const { bytes } = await recorded(2);
    const { record: loaded, verification } = checkRecordForReplay(bytes);
    const whole = JSON.parse(new TextDecoder().decode(bytes)) as {
      manifest: unknown;
      run: unknown;
      events: Record<string, unknown>[];
    };
    expect(verification.verdict).toBe('unverified');
    expect(loaded.manifest).toEqual(whole.manifest);
    expect(loaded.run).toEqual(whole.run);
    expect(loaded.start).toEqual(whole.events[0]);
    expect(loaded.end).toEqual(whole.events.at(-1));
    expect(loaded.providers).toEqual(['openai']);
    expect(loaded.capture).toMatchObject({ providers: true, fetch: false, now: false });
    const calls = loaded.cassette().calls;
    expect(calls.map((c) => [c.seq, c.kind, c.name])).toEqual([
      [1, 'llm', 'gpt-4o-mini'],
      [2, 'tool', 'lookup'],
      [3, 'llm', 'gpt-4o-mini'],
      [4, 'tool', 'lookup'],
    ]);
    expect(calls.map((c) => c.event)).toEqual(whole.events.slice(1, 5));
    expect(calls[1]?.output).toEqual({ i: 0, ok: true });
    expect(loaded.events).toEqual(whole.events);
  });

  it("gives the replayed run's events when they are read, and counts its tool calls", async () => {
    const { path } = await recorded(3);
    const outcome = await replay({ path }, agent(3));
    expect(outcome.report.status).toBe('reproduced');
    expect(outcome.report.toolCalls).toBe(3);
    const events = outcome.result.record?.events as Record<string, unknown>[];
    expect(events.map((e) => e['type'])).toEqual([
      'run',
      'llm',
      'tool',
      'llm',
      'tool',
      'llm',
      'tool',
      'run',
    ]);
    expect(outcome.result.record?.events).toBe(events);
    expect(JSON.parse(JSON.stringify(outcome.result.record)).events).toEqual(events);
  });

  it('with out, compares the written record, and still locates a divergence', async () => {
    const { path } = await recorded(2);
    const out = join(tempDir(), 'replayed.json');
    const same = await replay({ path }, agent(2), { out });
    expect(same.report).toMatchObject({ status: 'reproduced', toolCalls: 2 });
    const changed = await replay(
      { path },
      agent(2, (i) => `step ${i}, quickly`),
      {
        out,
        mode: 'ordered',
      },
    );
    expect(changed.report.status).toBe('diverged');
    expect(changed.report.divergence).toMatchObject({ call: 1, kind: 'llm', reason: 'request' });
    expect(changed.report.divergence?.input).toEqual([
      {
        op: 'replace',
        path: '/messages/0/content',
        before: 'step 0',
        after: 'step 0, quickly',
      },
    ]);
    expect(JSON.parse(readFileSync(out, 'utf8')).manifest).toEqual(changed.result.manifest);
  });
});
