// How every run begins and ends, for the in-process recorder (recorder/recorder.ts) and for a
// run recorded across processes (journal/begin.ts, journal/seal.ts): its id, its run-start and
// run-end events. The journal header is the journal's own (journal/format.ts).
import { realRandomUUID } from '../core/internal-globals.js';
import type { Actor } from '../core/events.js';
import type { Redactor } from '../redact/index.js';
import { eventBase } from './event-base.js';
import { sortedMembers } from './sorted.js';

/** The span id of every run's own span. */
export const RUN_SPAN_ID = 'run';

/** A fresh run id: `run_` and 16 random hex digits. */
export function newRunId(): string {
  return `run_${realRandomUUID().replace(/-/g, '').slice(0, 16)}`;
}

/** What a run-start event states (values already snapshotted). */
export interface RunStart {
  readonly runId: string;
  readonly seq: number;
  readonly name: string;
  readonly at: string;
  readonly input: unknown;
  readonly metadata?: unknown;
  readonly actor?: unknown;
}

/** The run-start event (docs/spec.md §5: `run`, `phase: "start"`). */
export function runStartEvent(start: RunStart): { readonly seq: number } & Record<string, unknown> {
  return {
    ...eventBase(
      {
        runId: start.runId,
        spanId: RUN_SPAN_ID,
        parentSpanId: null,
        seq: start.seq,
        tsStart: start.at,
        tsEnd: start.at,
      },
      'run',
    ),
    phase: 'start',
    name: start.name,
    status: 'running',
    input: start.input ?? null,
    output: null,
    error: null,
    ...(start.metadata === undefined ? {} : { metadata: start.metadata }),
    ...(start.actor === undefined ? {} : { actor: start.actor as Actor }),
  };
}

/** What a run-end event states. */
export interface RunEndFacts {
  readonly runId: string;
  readonly spanId: string;
  readonly seq: number;
  readonly name: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly status: 'success' | 'error';
  readonly output: unknown;
  readonly error: unknown;
  /** Its position in `events`, to locate its own redaction sites in the record. */
  readonly index: number;
  /** Record-level pointers of everything redacted before it. */
  readonly redactions: readonly string[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** A run-end event as runEndEvent builds it. */
export type RunEndEvent = {
  readonly seq: number;
  readonly run_id: string;
  readonly span_id: string;
  readonly name: string;
  readonly ts_start: string;
  readonly ts_end: string;
  readonly status: 'success' | 'error';
  readonly output: unknown;
  readonly error: unknown;
  readonly metadata?: Record<string, unknown>;
} & Record<string, unknown>;

/**
 * The run-end event, with its output and error redacted here rather than when it is emitted, so
 * that its own sites join the run's list in `metadata.redactions`, and the run summary can
 * repeat the stored values (docs/spec.md §5.2).
 */
export function runEndEvent(end: RunEndFacts, redactor: Redactor): RunEndEvent {
  const output = redactor.redact(end.output ?? null, '/output');
  const error = redactor.redact(end.error ?? null, '/error');
  const ownSites = [...output.sites, ...error.sites];
  const redactions = [...end.redactions, ...ownSites.map((site) => `/events/${end.index}${site}`)];
  const metadata = sortedMembers({
    ...end.metadata,
    ...(ownSites.length === 0 ? {} : { redacted: ownSites }),
    ...(redactions.length === 0 ? {} : { redactions }),
  });
  return {
    ...eventBase(
      {
        runId: end.runId,
        spanId: end.spanId,
        parentSpanId: null,
        seq: end.seq,
        tsStart: end.startedAt,
        tsEnd: end.endedAt,
      },
      'run',
    ),
    phase: 'end',
    name: end.name,
    status: end.status,
    input: null,
    output: output.value,
    error: error.value,
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
  };
}
