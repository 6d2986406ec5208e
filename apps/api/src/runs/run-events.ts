// The run-start and run-end events the service writes (docs/spec.md §5: `run` events, one
// start, one end with the final status, output and error). The service's own span is "run".
import type { z } from 'zod';
import type { ActorSchema, EventErrorSchema } from '../schemas.js';

/** The span id of the run's own span. */
export const RUN_SPAN = 'run';

type Actor = z.infer<typeof ActorSchema>;
type EventError = z.infer<typeof EventErrorSchema>;

export interface RunStartFacts {
  readonly runId: string;
  readonly name: string;
  readonly at: string;
  readonly input: unknown;
  readonly metadata?: Record<string, unknown> | undefined;
  readonly actor: Actor;
}

export function runStartEvent(f: RunStartFacts): Record<string, unknown> {
  return {
    schema_version: 1,
    run_id: f.runId,
    span_id: RUN_SPAN,
    parent_span_id: null,
    seq: 0,
    ts_start: f.at,
    ts_end: f.at,
    type: 'run',
    phase: 'start',
    name: f.name,
    status: 'running',
    input: f.input ?? null,
    output: null,
    error: null,
    ...(f.metadata === undefined ? {} : { metadata: f.metadata }),
    actor: f.actor,
  };
}

export interface RunEndFacts {
  readonly runId: string;
  readonly name: string;
  readonly seq: number;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly status: 'success' | 'error';
  readonly output: unknown;
  readonly error: EventError | null;
}

export function runEndEvent(f: RunEndFacts): Record<string, unknown> {
  return {
    schema_version: 1,
    run_id: f.runId,
    span_id: RUN_SPAN,
    parent_span_id: null,
    seq: f.seq,
    ts_start: f.startedAt,
    ts_end: f.endedAt,
    type: 'run',
    phase: 'end',
    name: f.name,
    status: f.status,
    output: f.output ?? null,
    error: f.error,
  };
}
