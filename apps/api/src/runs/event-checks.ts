// Checks each event of an appended batch against the event shapes of docs/spec.md §5, so a
// bad event is refused with a 400 that names its index and member instead of being sealed
// into a record that could never verify.
import { oracleEntryText } from '@runback/replay-digest';
import { ApiError } from '../errors.js';
import { EventBaseSchema, EventTypeSchemas } from '../schemas.js';
import { issueText } from '../validate.js';

/** An event that passed the checks, as a plain JSON object. */
export type CheckedEvent = Record<string, unknown> & { readonly type: string };

function invalid(index: number, message: string): ApiError {
  return new ApiError(400, 'EVENT_INVALID', `event ${index}: ${message}`);
}

/**
 * Checks one event of a batch for run `runId`. `run` events are the service's own (it writes
 * the run's start and end), so a client's are refused.
 */
export function checkEvent(value: unknown, index: number, runId: string): CheckedEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(
      index,
      `expected an object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    );
  }
  const base = EventBaseSchema.safeParse(value);
  if (!base.success) throw invalid(index, issueText(base.error));
  const event = value as CheckedEvent;
  if (event['run_id'] !== undefined && event['run_id'] !== runId) {
    throw invalid(
      index,
      `member run_id: expected ${JSON.stringify(runId)} (the run in the path), got ${JSON.stringify(event['run_id'])}`,
    );
  }
  if (event.type === 'run') {
    throw invalid(
      index,
      'member type: expected an llm, tool, env, reasoning or custom event, got "run" (the service writes the run-start and run-end events itself)',
    );
  }
  const typed = (
    EventTypeSchemas as Record<string, (typeof EventTypeSchemas)[keyof typeof EventTypeSchemas]>
  )[event.type];
  if (typed !== undefined) {
    const result = typed.safeParse(value);
    if (!result.success) throw invalid(index, issueText(result.error));
  }
  try {
    // The oracle key must be computable now, or the run could never be sealed (§4.1, §4.2).
    oracleEntryText(event);
  } catch (err) {
    throw invalid(
      index,
      `expected the event's replay key to be computable, got: ${(err as Error).message}`,
    );
  }
  return event;
}

/** Checks every event of a batch; the first bad one is reported. */
export function checkEvents(values: readonly unknown[], runId: string): CheckedEvent[] {
  return values.map((value, index) => checkEvent(value, index, runId));
}
