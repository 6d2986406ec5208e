// Records keep the program's member order (docs/spec.md §7): tool inputs and outputs, model
// requests and responses, run input and output are stored and served back as the program gave
// or received them, while every hash and replay key stays canonical.
import { describe, expect, it } from 'vitest';
import { canonical } from '@runback/canonical';
import { llmCall, replay, tool, type LlmCallOutcome } from '../../src/index.js';
import { recordValid, TRUST, type Ev } from '../support/record.js';

const INPUT = { zeta: 'z', applicant: { name: 'Ada', id: 'A-17' } };
const SCORE = { score: 742, bureau: 'mock', details: { window: '24m', band: 'B' } };
const RAW = {
  id: 'cmpl-1',
  object: 'chat.completion',
  choices: [{ message: { role: 'assistant', content: 'ok' } }],
};

/** A raw tool loop: the tool's result goes into the next prompt as JSON text. */
async function agent(input: unknown): Promise<unknown> {
  const scored = await tool('score', input, () => ({ ...SCORE }));
  const answer = await llmCall(
    {
      provider: 'openai',
      modelId: 'gpt-test',
      request: {
        messages: [{ role: 'tool', content: JSON.stringify(scored) }],
        tools: [],
        params: { top_p: 1, max_tokens: 9 },
      },
    },
    async () => ({ ...RAW }),
    (raw): LlmCallOutcome => ({
      response: { text: 'ok', finish_reason: 'stop', tool_calls: [], raw },
    }),
    (recorded) => recorded.response.raw as typeof RAW,
  );
  return { printed: JSON.stringify(scored), raw: JSON.stringify(answer), tail: { y: 1, b: 2 } };
}

describe('member order', () => {
  it('stores every value in the order the program gave it, and the record verifies valid', async () => {
    const { record, text } = await recordValid(() => agent(INPUT), { input: INPUT });
    const events = record.events;
    const start = events.find((e) => e.type === 'run' && e['phase'] === 'start') as Ev;
    const toolEvent = events.find((e) => e.type === 'tool') as Ev;
    const llm = events.find((e) => e.type === 'llm') as Ev;
    const end = events.find((e) => e.type === 'run' && e['phase'] === 'end') as Ev;
    expect(JSON.stringify(start['input'])).toBe(JSON.stringify(INPUT));
    expect(JSON.stringify(toolEvent['input'])).toBe(JSON.stringify(INPUT));
    expect(JSON.stringify(toolEvent['output'])).toBe(JSON.stringify(SCORE));
    expect(Object.keys(llm['request'] as object)).toEqual(['messages', 'tools', 'params']);
    expect(JSON.stringify((llm['response'] as { raw: unknown }).raw)).toBe(JSON.stringify(RAW));
    expect(Object.keys(end['output'] as object)).toEqual(['printed', 'raw', 'tail']);
    // The event's own members are in canonical order, `_hash` first, in the file as well.
    for (const event of events) {
      const names = Object.keys(event);
      expect(names[0]).toBe('_hash');
      expect(names.slice(1)).toEqual([...names.slice(1)].sort());
    }
    expect(text).toContain(
      '"output":{"score":742,"bureau":"mock","details":{"window":"24m","band":"B"}}',
    );
  });

  it('hashes and keys canonically: the run with its input in sorted order has the same digests', async () => {
    const given = await recordValid(() => agent(INPUT), { input: INPUT });
    const sortedInput = JSON.parse(canonical(INPUT)) as unknown;
    const sorted = await recordValid(() => agent(sortedInput), { input: sortedInput });
    const toolOf = (r: typeof given) => r.record.events.find((e) => e.type === 'tool') as Ev;
    expect(JSON.stringify(toolOf(given)['input'])).not.toBe(
      JSON.stringify(toolOf(sorted)['input']),
    );
    expect(given.record.manifest.replay['cassette_digest']).toBe(
      sorted.record.manifest.replay['cassette_digest'],
    );
  });

  it('a replay hands the program the values in their recorded order and reproduces', async () => {
    const { text, output } = await recordValid(() => agent(INPUT), { input: INPUT });
    const replayed = await replay(text, agent, { trust: TRUST });
    expect(replayed.error).toBeUndefined();
    expect(replayed.report.misses).toEqual([]);
    expect(replayed.report.status).toBe('reproduced');
    expect(JSON.stringify(replayed.output)).toBe(JSON.stringify(output));
  });
});
