// Test support: LanguageModelV3 values for the tests that drive a mock model.
import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';

/** AI SDK 6 token counts, as a provider reports them. */
export const usage = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** The opening parts of a stream: its start and the response's id, model and timestamp. */
export const opening: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  {
    type: 'response-metadata',
    id: 'resp-s',
    modelId: 'mock-model-2026-01',
    timestamp: new Date('2026-01-05T10:00:00.000Z'),
  },
];
