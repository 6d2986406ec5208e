// Agents built on LangChain.js, the OpenAI Agents SDK (tracing off and on, its exporter pointed
// at a local service), the AI SDK's generateObject/streamObject and Mastra, each recorded with
// `runback record` against a mock model API and an internal service on 127.0.0.1, then replayed
// strict with `runback replay` after both servers are stopped, with no provider key anywhere in
// the environment: the replay prints byte-identical stdout and reports `reproduced`.
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  startMockServer,
  type MockReply,
  type MockServer,
} from '../../sdk/test/mock-llm/server.js';
import { chatToolLoop, responsesToolLoop, structuredOutputs } from './support/replies.js';
import { startService, type Service } from './support/service.js';
import { agentPath, cleanEnv, jsonReport, runNode, runback, tempDir } from './support/runback.js';

const RECORDING_KEY = 'sk-mock-recording-only-0123456789';
const servers: (MockServer | Service)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

interface Recorded {
  readonly record: string;
  readonly stdout: string;
  readonly llm: MockServer;
  readonly service: Service;
  readonly env: Record<string, string>;
}

/** Records `agent` zero-code against fresh servers, then stops them. */
async function record(
  agent: string,
  replies: MockReply[],
  extra: Record<string, string> = {},
  keepServers = false,
): Promise<Recorded> {
  const llm = await startMockServer();
  const service = await startService();
  servers.push(llm, service);
  llm.reply(...replies);
  const record = join(tempDir(), 'baseline.json');
  const env = { MOCK_LLM_URL: llm.url, SERVICE_URL: service.url, ...extra };
  const ran = await runback(
    ['record', '--out', record, '--', process.execPath, agentPath(agent)],
    cleanEnv({ ...env, OPENAI_API_KEY: RECORDING_KEY }),
  );
  expect(ran.stderr, ran.stderr).toContain('exit 0');
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.code).toBe(0);
  if (!keepServers) {
    await llm.close();
    await service.close();
  }
  return { record, stdout: ran.stdout, llm, service, env };
}

/** Replays strict with no provider key in the environment. */
async function replayKeyless(recorded: Recorded) {
  const ran = await runback(
    [
      'replay',
      recorded.record,
      '--json',
      '--',
      process.execPath,
      agentPath(recordedAgent(recorded)),
    ],
    cleanEnv(recorded.env),
  );
  return { ran, report: jsonReport(ran) };
}

const agents = new WeakMap<Recorded, string>();
function recordedAgent(recorded: Recorded): string {
  return agents.get(recorded) as string;
}

async function recordAndReplay(agent: string, replies: MockReply[], extra = {}) {
  const recorded = await record(agent, replies, extra);
  agents.set(recorded, agent);
  const replayed = await replayKeyless(recorded);
  return { recorded, ...replayed };
}

function expectReproduced(result: Awaited<ReturnType<typeof recordAndReplay>>): void {
  const { recorded, ran, report } = result;
  if (process.env['FRAMEWORKS_DEBUG'] === '1') console.log(recorded.stdout, ran.stderr);
  expect(ran.stdout).toBe(recorded.stdout);
  expect(report['status']).toBe('reproduced');
  expect(report['cassette_matches']).toBe(true);
  expect(report['output_matches']).toBe(true);
  expect(report['placeholder_credentials']).toEqual(['OPENAI_API_KEY']);
  expect(ran.code).toBe(0);
}

/** The tools finished in the other order than they were asked: Lyon's answer came first. */
function expectOverlap(recorded: Recorded): void {
  const asked = recorded.service.requests.filter((r) => r.path.startsWith('/weather'));
  expect(asked.map((r) => r.path)).toEqual(['/weather?city=Paris', '/weather?city=Lyon']);
  const printed = recorded.stdout.split('\n').filter((l) => l.startsWith('tool lookup'));
  expect(
    printed.map((l) => (JSON.parse(l.slice('tool lookup '.length)) as { city: string }).city),
  ).toEqual(['Lyon', 'Paris']);
}

describe('zero-code record, keyless strict replay', () => {
  test('LangChain.js: ChatOpenAI with bound tools, concurrent tool calls, a streamed answer', async () => {
    const result = await recordAndReplay('langchain.mjs', chatToolLoop(true));
    expectOverlap(result.recorded);
    expect(result.recorded.stdout).toContain('answer Lyon is warmer');
    expectReproduced(result);
  });

  test('OpenAI Agents SDK, tracing off: concurrent function tools on the Responses API', async () => {
    const result = await recordAndReplay('openai-agents.mjs', responsesToolLoop());
    expectOverlap(result.recorded);
    expect(result.recorded.stdout).toContain('answer Lyon is warmer');
    expect(result.recorded.service.requests.some((r) => r.path.includes('traces'))).toBe(false);
    expectReproduced(result);
  });

  test('OpenAI Agents SDK, tracing on: span ids and times in the export reproduce', async () => {
    const result = await recordAndReplay('openai-agents.mjs', responsesToolLoop(), {
      AGENT_TRACING: '1',
    });
    expectOverlap(result.recorded);
    const exports = result.recorded.service.requests.filter((r) => r.path === '/v1/traces/ingest');
    expect(exports.length).toBeGreaterThan(0);
    expect(exports[0]?.headers['authorization']).toBe(`Bearer ${RECORDING_KEY}`);
    expect(exports[0]?.body).toContain('"function"');
    expectReproduced(result);
  });

  test("AI SDK: generateObject, then streamObject's partial objects", async () => {
    const result = await recordAndReplay('ai-sdk.mjs', structuredOutputs());
    expect(result.recorded.stdout).toContain('object {"city":"Paris","temp_c":14.5,"sky":"rain"}');
    expect(
      result.recorded.stdout.split('\n').filter((l) => l.startsWith('partial')).length,
    ).toBeGreaterThan(2);
    expectReproduced(result);
  });

  test('Mastra: an agent with a createTool tool, concurrent calls, then its answer', async () => {
    const result = await recordAndReplay('mastra.mjs', chatToolLoop(false));
    expectOverlap(result.recorded);
    expect(result.recorded.stdout).toContain('answer Lyon is warmer');
    expectReproduced(result);
  });
});

describe('RUNBACK_REPLAY with the preload, no runback command', () => {
  test('a LangChain agent starts on a placeholder key and prints what it printed live', async () => {
    const recorded = await record('langchain.mjs', chatToolLoop(true));
    const ran = await runNode(
      ['--import', '@runback/sdk/preload', agentPath('langchain.mjs')],
      cleanEnv({ ...recorded.env, RUNBACK_REPLAY: recorded.record }),
    );
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe(recorded.stdout);
    expect(ran.code).toBe(0);
  });
});

describe('placeholder credentials never reach the network', () => {
  test('a strict replay with the servers still listening sends them nothing', async () => {
    const recorded = await record('langchain.mjs', chatToolLoop(true), {}, true);
    agents.set(recorded, 'langchain.mjs');
    const seen = [recorded.llm.requests.length, recorded.service.requests.length];
    expect(seen).toEqual([2, 2]);
    const { ran, report } = await replayKeyless(recorded);
    expect(report['status']).toBe('reproduced');
    expect(ran.stdout).toBe(recorded.stdout);
    expect([recorded.llm.requests.length, recorded.service.requests.length]).toEqual(seen);
  });

  test('live-on-miss: a changed prompt would go live, and is refused before it is sent', async () => {
    const { ran, report, llm } = await forkWithChangedPrompt({});
    expect(report['placeholder_credentials']).toEqual(['OPENAI_API_KEY']);
    expect(ran.stderr).toContain('REPLAY_PLACEHOLDER_CREDENTIAL');
    expect(ran.stderr).toContain('runback-replay-placeholder-not-a-key');
    expect(llm.requests).toEqual([]);
    expect(report['status']).toBe('diverged');
  });

  test('a key the user set is kept, and then used for a live call', async () => {
    const { report, llm } = await forkWithChangedPrompt({ OPENAI_API_KEY: 'sk-user-own-key' });
    expect(report['placeholder_credentials']).toEqual([]);
    expect(llm.requests[0]?.headers['authorization']).toBe('Bearer sk-user-own-key');
  });
});

/**
 * Records the LangChain agent, then replays it live-on-miss with another question, a model API
 * listening, and `env` added: the first model call misses and would go live.
 */
async function forkWithChangedPrompt(env: Record<string, string>) {
  const recorded = await record('langchain.mjs', chatToolLoop(true));
  const llm = await startMockServer();
  servers.push(llm);
  llm.reply(...chatToolLoop(true));
  const ran = await runback(
    ['replay', recorded.record, '--mode', 'live-on-miss', '--json', '--'].concat([
      process.execPath,
      agentPath('langchain.mjs'),
    ]),
    cleanEnv({ ...recorded.env, MOCK_LLM_URL: llm.url, QUESTION: 'And in Nice?', ...env }),
  );
  return { ran, report: jsonReport(ran), llm };
}
