// The real-client agents (test/fixtures/agents) with the mock routes that answer them, and the
// two ways of running one: in-code (the SDK's tool(), instrumented clients, the AI SDK
// middleware) and zero-code (a separate Node program with nothing of runback's in it).
import { fileURLToPath } from 'node:url';
import {
  aiSdkRoute,
  anthropicStreamRoute,
  gatewayRoute,
  openai503Route,
  openaiChatRoute,
  openaiResponsesRoute,
  type Route,
} from '../mock-llm/agents.js';
import { instrumentAnthropic } from '../../src/integrations/anthropic/index.js';
import { instrumentOpenAI } from '../../src/integrations/openai/index.js';
import { runbackMiddleware } from '../../src/integrations/ai/index.js';
import { tool } from '../../src/hooks/spans/tool.js';

/** One agent and the server's side of it. */
export interface AgentScenario {
  readonly name: string;
  /** The agent module (test/fixtures/agents/NAME.mjs). */
  readonly file: string;
  readonly route: () => Route;
  /** The HTTP attempts its model calls make (llm events): retries count. */
  readonly llmCalls: number;
}

const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/agents/${name}.mjs`, import.meta.url));

/** `node RUNNER AGENT URL` runs an agent zero-code. */
export const AGENT_RUNNER = fixture('run');

export const SCENARIOS: readonly AgentScenario[] = [
  { name: 'openai-chat', file: fixture('openai-chat'), route: openaiChatRoute, llmCalls: 3 },
  { name: 'openai-503', file: fixture('openai-503'), route: openai503Route, llmCalls: 1 },
  {
    name: 'anthropic-stream',
    file: fixture('anthropic-stream'),
    route: anthropicStreamRoute,
    llmCalls: 3,
  },
  { name: 'ai-sdk', file: fixture('ai-sdk'), route: aiSdkRoute, llmCalls: 3 },
  {
    name: 'openai-responses',
    file: fixture('openai-responses'),
    route: openaiResponsesRoute,
    llmCalls: 2,
  },
  { name: 'openai-gateway', file: fixture('openai-gateway'), route: gatewayRoute, llmCalls: 1 },
];

/** What an agent module exports. */
type AgentModule = { agent: (ctx: unknown) => Promise<void> };

/** Runs the scenario's agent in-code against `url`; returns what it printed. */
export async function runInCode(scenario: AgentScenario, url: string): Promise<string> {
  const { agent } = (await import(scenario.file)) as AgentModule;
  let printed = '';
  await agent({
    url,
    print: (line: string) => (printed += `${line}\n`),
    tool: (name: string, input: unknown, fn: (input: unknown) => Promise<unknown>) =>
      tool(name, input, fn),
    instrumentOpenAI,
    instrumentAnthropic,
    aiMiddleware: runbackMiddleware(),
  });
  return printed;
}
