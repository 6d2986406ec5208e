// A doGenerate result as the llm event's outcome. `response.raw` keeps the result itself, as
// JSON, so that a replay can hand the same result back to the AI SDK.
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import type { LlmToolCall } from '../../core/events.js';
import type { LlmCallOutcome, LlmCallSpan } from '../../hooks/spans/llm.js';
import { errorMetadataOf } from './call-error.js';
import { toJson } from './json.js';
import { metadataOf, responseHeaders, responseOf, toolCallOf, usageOf } from './response.js';

/**
 * Runs a live doGenerate inside `span` and records it: its result, or its error together with
 * what the AI SDK needs to treat a replay of the failure the same way (call-error.ts). This is
 * llmCall's flow, written out for that error metadata. Returns or throws what the provider did.
 */
export async function recordGenerate(
  span: LlmCallSpan,
  doGenerate: () => PromiseLike<LanguageModelV3GenerateResult>,
): Promise<LanguageModelV3GenerateResult> {
  let result: LanguageModelV3GenerateResult;
  try {
    result = await span.run(doGenerate);
  } catch (err) {
    span.fail(err, errorMetadataOf(err));
    throw err;
  }
  let outcome: LlmCallOutcome;
  try {
    outcome = generateOutcome(result);
  } catch (err) {
    // The call happened but cannot be described: record it as failed rather than leave it open.
    span.fail(err);
    throw err;
  }
  span.end(outcome);
  return result;
}

/**
 * The outcome of a generate call. `raw` holds every member a replay needs to rebuild the result
 * (content, finishReason, usage, providerMetadata, warnings, and the response's id, modelId and
 * timestamp, the timestamp as an ISO string, and the response headers a client acts on, by the
 * allowlist of providers/http-headers.ts). It leaves out what the AI SDK keeps only for
 * debugging: the HTTP request body (it repeats the request), the response body (it repeats the
 * content) and every other response header (they can carry cookies and account ids).
 */
export function generateOutcome(result: LanguageModelV3GenerateResult): LlmCallOutcome {
  const texts: string[] = [];
  const reasonings: string[] = [];
  const toolCalls: LlmToolCall[] = [];
  for (const part of result.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'reasoning') reasonings.push(part.text);
    else if (part.type === 'tool-call') toolCalls.push(toolCallOf(part));
  }
  const response = result.response;
  const raw = toJson(
    {
      content: result.content,
      finishReason: result.finishReason,
      usage: result.usage,
      providerMetadata: result.providerMetadata,
      response:
        response === undefined
          ? undefined
          : {
              id: response.id,
              modelId: response.modelId,
              timestamp: response.timestamp,
              ...responseHeaders(response.headers),
            },
      warnings: result.warnings,
    },
    'AI SDK generate result',
  );
  return {
    response: {
      ...responseOf({ texts, reasonings, toolCalls, finishReason: result.finishReason }),
      raw,
    },
    usage: usageOf(result.usage),
    metadata: metadataOf(response),
  };
}
