// A replay miss inside an agent that then dies is the report's divergence: the call that
// missed, the recorded call it was compared with, and the request difference; an earlier shift
// in the streams (here one random draw too many) is reported beside it as the first departure.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { llmCall, type LlmCallOutcome } from '../hooks/spans/llm.js';
import { tool } from '../hooks/spans/tool.js';
import { ReplayMissError } from '../session/replay-source.js';
import { record } from './recorder.js';
import { replay } from './replay.js';

/** Draws a jitter, scores, then asks a model a prompt that names a second draw. */
function agent(options: { extraDraw?: boolean; prompt?: string } = {}) {
  return async () => {
    Math.random();
    if (options.extraDraw === true) Math.random();
    const score = await tool('get_score', { applicant: 'A-1' }, () => ({ score: 712 }));
    const lucky = Math.random().toFixed(12);
    const prompt = options.prompt ?? `Score ${score.score}, lucky number ${lucky}. Decide.`;
    const answer = await llmCall(
      {
        provider: 'openai',
        modelId: 'gpt-4o',
        request: { messages: [{ role: 'user', content: prompt }] },
      },
      async () => ({ text: 'approve' }),
      (r): LlmCallOutcome => ({
        response: { text: r.text, finish_reason: 'stop', tool_calls: [] },
      }),
      (recorded) => ({ text: recorded.response.text ?? '' }),
    );
    Math.random();
    return answer.text;
  };
}

async function baseline(): Promise<string> {
  const path = join(tempDir(), 'baseline.json');
  await record({ name: 'miss', out: path, captureEnv: { random: true } }, agent());
  return path;
}

describe('the report of a replay that missed', () => {
  it('names the missed call, its nearest recorded call and the request diff, not an extra call', async () => {
    const path = await baseline();
    const result = await replay({ path }, agent({ extraDraw: true }));
    expect(result.error).toBeInstanceOf(ReplayMissError);
    const d = result.report.divergence;
    expect(d).toMatchObject({
      call: 5,
      kind: 'llm',
      name: 'gpt-4o',
      reason: 'miss',
      nearest: { call: 4 },
      message: expect.stringContaining('strict replay: no recorded llm call "gpt-4o" matches'),
    });
    expect(d?.recordedSeq).toBe(d?.nearest?.seq);
    expect(d?.input).toEqual([
      {
        op: 'replace',
        path: '/messages/0/content',
        before: expect.stringMatching(/^Score 712, lucky number 0\.\d+\. Decide\.$/),
        after: expect.stringMatching(/^Score 712, lucky number 0\.\d+\. Decide\.$/),
      },
    ]);
    // Position by position, the streams parted at the second draw.
    expect(d?.departure).toMatchObject({ call: 2, kind: 'random', reason: 'extra' });
  });

  it('a miss at the first difference has no separate departure', async () => {
    const path = await baseline();
    const result = await replay({ path }, agent({ prompt: 'Decide.' }));
    expect(result.report.divergence).toMatchObject({
      call: 4,
      kind: 'llm',
      reason: 'miss',
      nearest: { call: 4 },
      departure: null,
    });
  });

  it('ordered: one call too many names no nearest call', async () => {
    const path = await baseline();
    const result = await replay(
      { path },
      async () => {
        await agent()();
        return tool('get_score', { applicant: 'B-2' }, () => ({ score: 1 }));
      },
      { mode: 'ordered' },
    );
    expect(result.report.divergence).toMatchObject({
      kind: 'tool',
      reason: 'miss',
      nearest: null,
      recordedSeq: null,
      input: [],
      message: expect.stringContaining('one more tool call "get_score" than the record holds'),
    });
  });

  it('a replay that matches call for call has no divergence', async () => {
    const path = await baseline();
    const result = await replay({ path }, agent());
    expect(result.report.status).toBe('reproduced');
    expect(result.report.divergence).toBeNull();
  });

  it('a call recorded inside a tool body that the body, run live, no longer makes says so', async () => {
    const path = join(tempDir(), 'nested.json');
    const nested = (lookup: boolean) => () =>
      tool('get_file', { id: 'A-1' }, async () => {
        const bureau = lookup
          ? await tool('bureau', { id: 'A-1' }, () => ({ score: 712 }))
          : { score: 712 };
        return { ...bureau, income: 52_000 };
      });
    await record({ name: 'nested', out: path }, nested(true));
    // Served from the record, the outer body does not run: the nested call is given back.
    expect((await replay({ path }, nested(false))).report.status).toBe('reproduced');
    const result = await replay({ path }, nested(false), { tools: 'live' });
    expect(result.report.divergence).toMatchObject({
      call: 2,
      kind: 'tool',
      name: 'bureau',
      reason: 'missing',
      message: expect.stringContaining(
        'inside the body of tool "get_file" (seq 1); the body ran live in this replay (tools: live) and did not make it',
      ),
    });
  });
});
