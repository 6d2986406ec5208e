// Answering a doGenerate call from the record: the LanguageModelV3GenerateResult is rebuilt from
// `response.raw` (generate.ts wrote it) and the provider is never called.
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { endReplayed, type LlmCallSpan, type RecordedLlmCall } from '../../hooks/spans/llm.js';
import { asAiSdkError } from './call-error.js';
import { isObject } from '../../core/values.js';
import { failUnsupported, withTimestamp } from './replay-support.js';

/**
 * The recorded result of a replayed generate call, or the recorded failure, thrown as the AI SDK
 * error it was. Ends `span` either way.
 */
export function replayGenerate(
  span: LlmCallSpan,
  recorded: RecordedLlmCall,
  modelId: string,
): LanguageModelV3GenerateResult {
  let result: LanguageModelV3GenerateResult | undefined;
  if (recorded.error === null && recorded.response !== null) {
    result = resultOf(recorded.response.raw);
    // Checked before the span ends: a call that cannot be answered is recorded as failed.
    if (result === undefined) {
      throw failUnsupported(span, modelId, 'a recorded generate result (response.raw)', recorded);
    }
  }
  const failure = endReplayed(span);
  if (failure !== undefined) throw asAiSdkError(failure, recorded.metadata);
  return result as LanguageModelV3GenerateResult;
}

/**
 * The result as the provider returned it: `response.timestamp` a Date again, file data the
 * base64 text it was stored as (the AI SDK takes either), tool-call input the JSON text it was,
 * the response headers the record kept, and what it does not hold (the HTTP request and
 * response bodies, the other response headers) undefined. A copy: nothing the AI SDK or the agent does to it can reach the record
 * being replayed, which the report compares against afterwards.
 */
function resultOf(raw: unknown): LanguageModelV3GenerateResult | undefined {
  if (!isObject(raw) || !Array.isArray(raw['content'])) return undefined;
  const { response, warnings, ...rest } = structuredClone(raw);
  return {
    ...(rest as Pick<LanguageModelV3GenerateResult, 'content' | 'finishReason' | 'usage'>),
    warnings: Array.isArray(warnings)
      ? (warnings as LanguageModelV3GenerateResult['warnings'])
      : [],
    ...(isObject(response) ? { response: withTimestamp(response) } : {}),
  };
}
