// The AI SDK language-model middleware that records each model call as an `llm` event.
//
//   import { wrapLanguageModel, generateText } from 'ai';
//   import { runbackMiddleware } from '@runback/sdk/ai';
//   const model = wrapLanguageModel({ model: openai('gpt-4o-mini'), middleware: runbackMiddleware() });
//
// `ai` is an optional peer of @runback/sdk, so nothing here imports it at run time: the caller
// wraps the model with its own copy of `wrapLanguageModel`.
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { LanguageModelMiddleware } from 'ai';
import { currentScope } from '../../session/context.js';
import { waitForSinkRoom } from '../../hooks/spans/call.js';
import { beginLlmCall, type LlmCallInit } from '../../hooks/spans/llm.js';
import { errorMetadataOf } from './call-error.js';
import { recordGenerate } from './generate.js';
import { checkMiddlewareOptions, type RunbackMiddlewareOptions } from './options.js';
import { replayGenerate } from './replay-generate.js';
import { replayStream } from './replay-stream.js';
import { requestOf } from './request.js';
import { recordingStream } from './stream.js';

/**
 * `metadata.api` of the events: `response.raw` is a LanguageModelV3 generate result and
 * `response.chunks` are LanguageModelV3 stream parts, as JSON, which is what a replay serves
 * back through the AI SDK (the provider-aware fetch capture stores wire formats instead).
 */
export const AI_SDK_API = 'ai-sdk.language-model-v3';

/**
 * A middleware that records every generate and stream call made inside a recorded run; outside
 * one it passes calls straight through. The provider's request runs inside the call's span, so
 * environment capture does not record its clock, randomness or fetch, and a provider-aware fetch
 * capture underneath does not record the same call a second time. A failed call is recorded
 * with its error and the error is rethrown unchanged.
 *
 * In a replay (`replay()`), a call the record answers never reaches the provider: the recorded
 * result, stream parts or error are handed back through the AI SDK's own types. The call is
 * keyed from the same request it was recorded with (`requestOf`), so a replay serves it only if
 * the agent asked exactly what it asked then.
 */
export function runbackMiddleware(options: RunbackMiddlewareOptions = {}): LanguageModelMiddleware {
  const settings = checkMiddlewareOptions(options);
  const initOf = (
    model: LanguageModelV3,
    params: LanguageModelV3CallOptions,
    stream: boolean,
  ): LlmCallInit => ({
    provider: settings.provider ?? model.provider,
    modelId: model.modelId,
    request: requestOf(params, stream),
    metadata: { api: AI_SDK_API },
    ...(settings.keyProjection === undefined ? {} : { keyProjection: settings.keyProjection }),
  });

  return {
    specificationVersion: 'v3',
    async wrapGenerate({ doGenerate, params, model }) {
      await waitForSinkRoom();
      // Outside a run the request is not even copied: the call costs what it did before.
      const span =
        currentScope() === undefined ? undefined : beginLlmCall(initOf(model, params, false));
      if (span === undefined) return doGenerate();
      if (span.replayed !== undefined) return replayGenerate(span, span.replayed, model.modelId);
      return recordGenerate(span, doGenerate);
    },
    async wrapStream({ doStream, params, model }) {
      await waitForSinkRoom();
      const span =
        currentScope() === undefined ? undefined : beginLlmCall(initOf(model, params, true));
      if (span === undefined) return doStream();
      if (span.replayed !== undefined) return replayStream(span, span.replayed, model.modelId);
      // The pipe is set up inside the span too: the provider's stream transform runs as the pipe
      // pulls, and whatever it reads from the environment belongs to the call, not to the run.
      return span.run(async () => {
        let result;
        try {
          result = await doStream();
        } catch (err) {
          span.fail(err, errorMetadataOf(err));
          throw err;
        }
        const recording = recordingStream(span, result.response?.headers);
        return { ...result, stream: result.stream.pipeThrough(recording) };
      });
    },
  };
}
