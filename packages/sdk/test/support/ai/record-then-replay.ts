// Test support for replaying AI SDK agents: record an agent through runbackMiddleware into a
// signed file, then replay the same agent (or a changed one) from that file with a model that
// must not be reached.
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateEd25519KeyPair } from '@runback/sign';
import { wrapLanguageModel } from 'ai';
import { tempDir } from '../temp-dir.js';
import { replay, type ReplayOptions, type ReplayOutcome } from '../../../src/recorder/replay.js';
import { record } from '../../../src/recorder/recorder.js';
import { runbackMiddleware } from '../../../src/integrations/ai/index.js';
import { startMockOpenAI, type MockReply } from '../../mock-llm/openai-server.js';
import { API_KEY } from './openai-fixtures.js';
import { readRun, type WrittenRun } from './record-to-file.js';

/** An agent over one model. */
export type ModelAgent<T> = (model: LanguageModelV3) => Promise<T>;

/** Replay options, and the agent the replay runs when it is not the recorded one. */
export type ReplayRunOptions<T> = ReplayOptions & { readonly replayAgent?: ModelAgent<T> };

/** {@link ReplayRunOptions}, and what to do between the recording and the replay. */
type RoundTripOptions<T> = ReplayRunOptions<T> & { readonly beforeReplay?: () => Promise<void> };

/** A recording and its replay. */
export interface RecordedAndReplayed<T> {
  readonly recorded: WrittenRun<T>;
  readonly replayed: ReplayOutcome<T>;
}

/**
 * Records `agent` over `live` wrapped with runbackMiddleware, then replays `replayAgent`
 * (default: the same agent) over `idle` wrapped likewise, the record's key pinned.
 */
export async function recordThenReplay<T>(
  live: LanguageModelV3,
  idle: LanguageModelV3,
  agent: ModelAgent<T>,
  options: RoundTripOptions<T> = {},
): Promise<RecordedAndReplayed<T>> {
  const { replayAgent = agent, beforeReplay, ...replayOptions } = options;
  const keys = generateEd25519KeyPair();
  const path = join(tempDir(), 'run.json');
  const signer = { alg: 'Ed25519', privateKey: keys.privateKey } as const;
  const wrap = (model: LanguageModelV3) =>
    wrapLanguageModel({ model, middleware: runbackMiddleware() });
  const { output } = await record({ name: 'ai-sdk-agent', out: path, signer }, () =>
    agent(wrap(live)),
  );
  await beforeReplay?.();
  const replayed = await replay({ path }, () => replayAgent(wrap(idle)), {
    trust: { pinned: [keys.publicKey] },
    ...replayOptions,
  });
  return {
    recorded: readRun(path, output, keys.publicKey),
    replayed: replayed as ReplayOutcome<T>,
  };
}

/** An @ai-sdk/openai chat model at `baseURL`, and every URL it fetched. */
export function chatModelAt(baseURL: string): { model: LanguageModelV3; fetched: string[] } {
  const fetched: string[] = [];
  const provider = createOpenAI({
    baseURL,
    apiKey: API_KEY,
    fetch: (input, init) => {
      fetched.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    },
  });
  return { model: provider.chat('gpt-4o-mini'), fetched };
}

/** A recording against the mock OpenAI server, and its replay after the server stopped. */
export interface ServedAndReplayed<T> extends RecordedAndReplayed<T> {
  /** The URLs the model fetched while recording, and while replaying. */
  readonly fetched: { readonly recording: readonly string[]; readonly replay: readonly string[] };
}

/**
 * Records `agent` over the real @ai-sdk/openai chat model against a mock server answering
 * `replies`, stops the server, and replays with a chat model pointed at its closed port.
 */
export async function recordThenReplayOpenAI<T>(
  replies: readonly MockReply[],
  agent: ModelAgent<T>,
  options: ReplayRunOptions<T> = {},
): Promise<ServedAndReplayed<T>> {
  const server = await startMockOpenAI();
  server.reply(...replies);
  const live = chatModelAt(server.baseURL);
  const idle = chatModelAt(server.baseURL);
  const result = await recordThenReplay(live.model, idle.model, agent, {
    ...options,
    beforeReplay: () => server.close(),
  });
  return { ...result, fetched: { recording: live.fetched, replay: idle.fetched } };
}
