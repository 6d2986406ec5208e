// Token counts as the llm event stores them (`usage {input_tokens, output_tokens,
// total_tokens}`), read from each provider's own usage object by its member names.
import type { LlmUsage } from '../../core/events.js';
import { isRecord, numberOrNull } from './json.js';

/** Where a provider's usage object keeps its counts. */
export interface UsageNames {
  readonly input: string;
  readonly output: string;
  /** Without one, the total is input + output. */
  readonly total?: string;
  /** Prompt tokens counted apart from `input` (Anthropic's cache reads and writes), added to it. */
  readonly moreInput?: readonly string[];
}

/** The counts of `usage`, or null when the response has no usage object. */
export function usageOf(usage: unknown, names: UsageNames): LlmUsage | null {
  if (!isRecord(usage)) return null;
  const counted = numberOrNull(usage[names.input]);
  const input =
    counted === null
      ? null
      : (names.moreInput ?? []).reduce(
          (sum, name) => sum + (numberOrNull(usage[name]) ?? 0),
          counted,
        );
  const output = numberOrNull(usage[names.output]);
  const total =
    names.total === undefined
      ? input === null || output === null
        ? null
        : input + output
      : numberOrNull(usage[names.total]);
  return { input_tokens: input, output_tokens: output, total_tokens: total };
}
