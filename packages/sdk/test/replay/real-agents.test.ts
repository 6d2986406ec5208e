// Agents written with the real openai, @anthropic-ai/sdk and ai clients, recorded in-code
// against the mock server, then replayed strict with the server stopped: every answer comes from
// the record, the agent prints exactly what it printed live, and the report says reproduced.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { record } from '../../src/recorder/recorder.js';
import { replay } from '../../src/recorder/replay.js';
import { startMockServer } from '../mock-llm/server.js';
import { SCENARIOS, runInCode, type AgentScenario } from '../support/agent-scenarios.js';
import { ED25519_SIGNER, TRUST, readValidRecord, type Ev } from '../support/record.js';
import { tempDir } from '../support/temp-dir.js';

/** Records the scenario in-code (clock, randomness, UUIDs and fetch captured too). */
async function recordInCode(scenario: AgentScenario) {
  const server = await startMockServer({ route: scenario.route() });
  const out = join(tempDir(), 'run.json');
  let printed = '';
  try {
    await record(
      { name: scenario.name, out, signer: ED25519_SIGNER, captureEnv: true },
      async () => {
        printed = await runInCode(scenario, server.url);
      },
    );
  } finally {
    await server.close();
  }
  return { out, printed, url: server.url, requests: server.requests, ...readValidRecord(out) };
}

describe('real-client agents, in-code: record, stop the server, replay strict', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: prints the same bytes and reproduces`, async () => {
      const recorded = await recordInCode(scenario);
      expect(recorded.printed).not.toBe('');
      expect(recorded.record.events.filter((e) => e.type === 'llm')).toHaveLength(
        scenario.llmCalls,
      );
      let printed = '';
      const result = await replay(
        { path: recorded.out },
        async () => {
          printed = await runInCode(scenario, recorded.url);
        },
        { trust: TRUST },
      );
      expect(result.error).toBeUndefined();
      expect(result.report.misses).toEqual([]);
      expect(result.report.unserved).toBe(0);
      expect(result.report.status).toBe('reproduced');
      expect(printed).toBe(recorded.printed);
    });
  }

  it('openai-chat: the 429 is recorded with its retry headers, never its cookie, and retried after retry-after-ms', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'openai-chat') as AgentScenario;
    const recorded = await recordInCode(scenario);
    const llm = recorded.record.events
      .filter((e) => e.type === 'llm')
      .sort((a, b) => a.seq - b.seq);
    expect(llm.map((e) => e.metadata?.['http_status'])).toEqual([200, 429, 200]);
    const limited = llm[1] as Ev;
    expect(limited.metadata?.['http_headers']).toMatchObject({
      'retry-after-ms': '25',
      'x-ratelimit-remaining-requests': '0',
    });
    expect(recorded.text).not.toContain('sticky-9f2');
    // The retry waited retry-after-ms: the client drew no jittered back-off.
    const randoms = recorded.record.events.filter(
      (e) => e.type === 'env' && e['kind'] === 'random',
    );
    expect(randoms).toHaveLength(3); // one request log id per attempt
    // The tool results went into the prompt in the program's member order.
    expect(recorded.printed).toContain(
      'tool {"score":742,"applicant":"A-17","bureau":"mock-bureau","checked":{"months":24,"band":"A"}}',
    );
    expect(recorded.printed).toContain('usage {"prompt_tokens":48,"completion_tokens":31');
  });

  it('openai-503: x-should-retry false is not retried live, and not in the replay', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'openai-503') as AgentScenario;
    const recorded = await recordInCode(scenario);
    expect(recorded.requests).toHaveLength(1);
    expect(recorded.printed).toMatch(/^InternalServerError 503 req_overloaded_1 /);
    const result = await replay(
      { path: recorded.out },
      async () => {
        await runInCode(scenario, recorded.url);
      },
      { trust: TRUST },
    );
    // One attempt in the replay too: a retry would have been a call the record does not hold.
    const replayed = (result.result.record?.events ?? []) as Ev[];
    expect(replayed.filter((e) => e.type === 'llm')).toHaveLength(1);
    expect(result.report.misses).toEqual([]);
    expect(result.report.status).toBe('reproduced');
  });

  it('openai-gateway: the record holds what the custom fetch sent, and the replay runs it', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'openai-gateway') as AgentScenario;
    const recorded = await recordInCode(scenario);
    const llm = recorded.record.events.find((e) => e.type === 'llm') as Ev;
    expect(llm['model']).toEqual({ provider: 'openai', model_id: 'gpt-4o-mini-2026-gw' });
    expect((llm['request'] as { params: Record<string, unknown> }).params['user']).toBe(
      'team-risk',
    );
    expect(recorded.printed).toContain('gateway calls 1');
    expect(recorded.printed).toContain('text Yes, for team-risk.');
  });
});
