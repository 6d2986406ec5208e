import { describe, expect, it } from 'vitest';
import { record } from '../src/recorder/recorder.js';
import { llmCall } from '../src/hooks/spans/llm.js';
import { reasoning } from '../src/hooks/spans/reasoning.js';
import { tool } from '../src/hooks/spans/tool.js';
import { diffRecords } from '@runback/diff';

interface Plan {
  readonly prompt?: string;
  readonly score?: number;
  readonly extraTool?: boolean;
  readonly tokens?: number;
  readonly responseId?: string;
}

/** Records a small agent run; the plan changes one thing at a time. */
async function agentRecord(plan: Plan = {}) {
  const { result } = await record({ name: 'loan', input: { applicant: 'A-1' } }, async () => {
    const answer = await llmCall(
      {
        provider: 'openai',
        modelId: 'gpt-4o-mini',
        request: {
          system: 'be careful',
          messages: [{ role: 'user', content: plan.prompt ?? 'decide on A-1' }],
        },
      },
      async () => ({ text: 'call the tools', id: plan.responseId ?? 'chatcmpl-1' }),
      (r) => ({
        response: {
          text: r.text,
          finish_reason: 'tool_calls',
          tool_calls: [],
          raw: { id: r.id, created: Math.random() },
        },
        usage: {
          input_tokens: plan.tokens ?? 100,
          output_tokens: 10,
          total_tokens: (plan.tokens ?? 100) + 10,
        },
        metadata: { response_id: r.id },
      }),
    );
    const score = await tool('get_credit_score', { applicant: 'A-1' }, () => ({
      score: plan.score ?? 742,
    }));
    if (plan.extraTool) await tool('check_fraud', { applicant: 'A-1' }, () => ({ flagged: false }));
    await tool('verify_income', { applicant: 'A-1' }, () => ({ verified: true }));
    reasoning(answer.text, 'plan');
    return { decision: score.score >= 700 ? 'approve' : 'decline' };
  });
  return result.record as NonNullable<typeof result.record>;
}

describe('diffRecords', () => {
  it('finds no semantic difference between two runs of the same work', async () => {
    const diff = diffRecords(await agentRecord(), await agentRecord({ responseId: 'chatcmpl-2' }));
    expect(diff.steps).toEqual([]);
    expect(diff.equal).toBe(true);
    expect(diff.counts).toEqual({ same: 4, changed: 0, added: 0, removed: 0 });
  });

  it('reports a changed prompt as one changed llm step with a JSON Pointer diff', async () => {
    const diff = diffRecords(
      await agentRecord(),
      await agentRecord({ prompt: 'decide on A-1 quickly' }),
    );
    expect(diff.equal).toBe(false);
    expect(diff.steps).toHaveLength(1);
    expect(diff.steps[0]).toMatchObject({
      change: 'changed',
      type: 'llm',
      name: 'gpt-4o-mini',
      input: [
        {
          op: 'replace',
          path: '/request/messages/0/content',
          before: 'decide on A-1',
          after: 'decide on A-1 quickly',
        },
      ],
      output: [],
    });
  });

  it('reports an inserted step once and the run output change', async () => {
    const diff = diffRecords(
      await agentRecord(),
      await agentRecord({ extraTool: true, score: 600 }),
    );
    expect(diff.counts).toEqual({ same: 3, changed: 1, added: 1, removed: 0 });
    const kinds = diff.steps.map((s) => `${s.change}:${s.name}`);
    expect(kinds).toEqual(['changed:get_credit_score', 'added:check_fraud']);
    expect(diff.steps[0]?.output).toEqual([
      { op: 'replace', path: '/score', before: 742, after: 600 },
    ]);
    expect(diff.run.output).toEqual([
      { op: 'replace', path: '/decision', before: 'approve', after: 'decline' },
    ]);
  });

  it('gives token deltas per model without counting them as differences', async () => {
    const diff = diffRecords(await agentRecord(), await agentRecord({ tokens: 150 }));
    expect(diff.equal).toBe(true);
    expect(diff.models).toHaveLength(1);
    expect(diff.models[0]).toMatchObject({
      model: 'gpt-4o-mini',
      a: { calls: 1, total_tokens: 110 },
      b: { calls: 1, total_tokens: 160 },
    });
  });

  it('is symmetric: swapping the runs swaps added and removed', async () => {
    const a = await agentRecord();
    const b = await agentRecord({ extraTool: true });
    const forward = diffRecords(a, b);
    const backward = diffRecords(b, a);
    expect(forward.steps.map((s) => s.change)).toEqual(['added']);
    expect(backward.steps.map((s) => s.change)).toEqual(['removed']);
  });

  it('tolerates records that are not shaped like records', () => {
    expect(diffRecords({}, { events: [null, 3, { type: 'run', phase: 'start' }] }).equal).toBe(
      true,
    );
  });
});
