// What the generate and stream replays share: reading the recorded JSON back into AI SDK values,
// and failing a call that the record cannot answer in this form.
import { RunbackError } from '../../core/errors.js';
import type { LlmCallSpan, RecordedLlmCall } from '../../hooks/spans/llm.js';

/**
 * Fails `span` with REPLAY_UNSUPPORTED and returns the error to throw: the served call holds no
 * answer in the form this call needs. In an `ordered` replay that happens when the agent now
 * streams a call it generated when recorded (or the reverse), or when the call was recorded by
 * another integration; the failed call then shows where the replay departed.
 */
export function failUnsupported(
  span: LlmCallSpan,
  modelId: string,
  expected: string,
  recorded: RecordedLlmCall,
): RunbackError {
  const api = recorded.metadata?.['api'];
  const err = new RunbackError(
    'REPLAY_UNSUPPORTED',
    `AI SDK replay of llm call "${modelId}" (seq ${span.seq}): expected ${expected}, got a recorded call without one (metadata.api ${typeof api === 'string' ? JSON.stringify(api) : 'absent'})`,
  );
  span.fail(err);
  return err;
}

/** `value` with its `timestamp` an ISO string turned back into the Date it was recorded from. */
export function withTimestamp<T extends Record<string, unknown>>(value: T): T {
  const timestamp = value['timestamp'];
  return typeof timestamp === 'string' ? { ...value, timestamp: new Date(timestamp) } : value;
}
