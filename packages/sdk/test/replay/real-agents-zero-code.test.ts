// The same real-client agents as real-agents.test.ts, zero-code: each runs as its own Node
// program with nothing of runback's in it, recorded through the preloaded SDK (what `runback
// record` does), then replayed strict with the mock server stopped (what `runback replay` does).
// The program prints exactly what it printed live and the report says reproduced. The preload
// is the built SDK (dist/), as a user's `runback record` loads it.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compareRuns, loadRecordForReplay } from '../../src/recorder/replay.js';
import { startMockServer } from '../mock-llm/server.js';
import { AGENT_RUNNER, SCENARIOS, type AgentScenario } from '../support/agent-scenarios.js';
import { ED25519_KEYS, TRUST, type Ev, type RecordJson } from '../support/record.js';
import { tempDir } from '../support/temp-dir.js';

// The built SDK, driven from a plain Node process (test/fixtures/agents/drive.mjs): its preload
// is what a user's `runback record` loads.
const SDK_PROCESS = fileURLToPath(new URL('../../dist/process.js', import.meta.url));
const DRIVER = fileURLToPath(new URL('../fixtures/agents/drive.mjs', import.meta.url));

/** Runs the agent program, live or replaying the record `replayOf`; returns its output. */
async function runProgram(
  scenario: AgentScenario,
  url: string,
  out: string,
  replayOf?: { path: string; record: RecordJson },
): Promise<{ stdout: string; stderr: string }> {
  const optionsFile = `${out}.options.json`;
  writeFileSync(
    optionsFile,
    JSON.stringify({
      args: [AGENT_RUNNER, scenario.file, url],
      out,
      name: scenario.name,
      privateKey: Buffer.from(ED25519_KEYS.privateKey).toString('hex'),
      ...(replayOf === undefined
        ? {}
        : {
            replay: {
              path: replayOf.path,
              mode: 'strict',
              of: {
                run_id: replayOf.record.manifest['run_id'],
                content_digest: replayOf.record.manifest['content_digest'],
                cassette_digest: replayOf.record.manifest.replay['cassette_digest'],
                mode: 'strict',
              },
            },
          }),
    }),
  );
  return promisify(execFile)(process.execPath, [DRIVER, SDK_PROCESS, optionsFile]);
}

async function recordZeroCode(scenario: AgentScenario) {
  const server = await startMockServer({ route: scenario.route() });
  const dir = tempDir();
  const out = join(dir, 'run.json');
  let live;
  try {
    live = await runProgram(scenario, server.url, out);
  } finally {
    await server.close();
  }
  const { record, verification } = await loadRecordForReplay({ path: out }, { trust: TRUST });
  expect(verification.verdict).toBe('valid');
  return {
    dir,
    out,
    record: record as unknown as RecordJson,
    text: readFileSync(out, 'utf8'),
    url: server.url,
    live,
    requests: server.requests,
  };
}

describe('real-client agents, zero-code: record the program, stop the server, replay strict', () => {
  it('runs the built SDK', () => {
    expect(existsSync(SDK_PROCESS), 'build the SDK first: pnpm --filter @runback/sdk build').toBe(
      true,
    );
  });

  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: prints the same bytes and reproduces`, async () => {
      const recorded = await recordZeroCode(scenario);
      expect(recorded.live.stderr).toBe('');
      expect(recorded.live.stdout).not.toBe('');
      expect(recorded.record.events.filter((e) => e.type === 'llm')).toHaveLength(
        scenario.llmCalls,
      );
      expect(recorded.text).not.toContain('sticky-9f2'); // openai-chat's 429 sets a cookie

      const replayOut = join(recorded.dir, 'replay.json');
      const replayed = await runProgram(scenario, recorded.url, replayOut, {
        path: recorded.out,
        record: recorded.record,
      });
      expect(replayed.stderr).toBe('');
      expect(replayed.stdout).toBe(recorded.live.stdout);
      const replayRecord = JSON.parse(readFileSync(replayOut, 'utf8')) as RecordJson;
      const report = compareRuns(
        recorded.record as never,
        replayRecord as never,
        'strict',
        { verdict: 'valid' },
        undefined,
      );
      expect(report.divergence).toBeNull();
      expect(report.status).toBe('reproduced');
    });
  }

  it('openai-503: one attempt live and one in the replay', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'openai-503') as AgentScenario;
    const recorded = await recordZeroCode(scenario);
    expect(recorded.requests).toHaveLength(1);
    const replayOut = join(recorded.dir, 'replay.json');
    const replayed = await runProgram(scenario, recorded.url, replayOut, {
      path: recorded.out,
      record: recorded.record,
    });
    expect(replayed.stdout).toBe(recorded.live.stdout);
    const events = (JSON.parse(readFileSync(replayOut, 'utf8')) as RecordJson).events;
    expect(events.filter((e: Ev) => e.type === 'llm')).toHaveLength(1);
  });
});
