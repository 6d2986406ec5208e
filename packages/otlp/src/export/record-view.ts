// The parts of a record the exporter reads, checked once: a record that a verifier would call
// invalid still exports (its verdict says so on the root span), but one without the shape of
// a record at all (docs/spec.md §5) is refused.
import { describe, OtlpError } from '../errors.js';
import { isRecord, stringOr } from '../json-text.js';

/** One event of the record, with the base members the span tree needs. */
export interface EventView {
  /** The event as stored, `_hash` and all. */
  readonly event: Readonly<Record<string, unknown>>;
  readonly index: number;
  readonly type: string;
  readonly seq: number;
  readonly spanId: string;
  readonly parentSpanId: string | null;
  /** Milliseconds since the epoch. */
  readonly start: number;
  readonly end: number | null;
}

/** A record as the exporter reads it. */
export interface RecordView {
  readonly record: Readonly<Record<string, unknown>>;
  readonly runId: string;
  readonly run: Readonly<Record<string, unknown>>;
  readonly manifest: Readonly<Record<string, unknown>>;
  /** Events in seq order (array order among equal seqs). */
  readonly events: readonly EventView[];
}

/** Reads `record`, throwing OTLP_NOT_A_RECORD when it is not shaped like one. */
export function readRecord(record: unknown): RecordView {
  if (!isRecord(record)) fail('the record', 'a JSON object', record);
  const manifest = record['manifest'];
  const run = record['run'];
  const events = record['events'];
  if (!isRecord(manifest)) fail('manifest', 'an object', manifest);
  if (!isRecord(run)) fail('run', 'an object', run);
  if (!Array.isArray(events)) fail('events', 'an array', events);
  const runId = stringOr(manifest['run_id']) ?? stringOr(run['run_id']);
  if (runId === undefined || runId === '')
    fail('manifest.run_id', 'a non-empty string', manifest['run_id']);
  const read = events.map((event: unknown, index) => readEvent(event, index));
  read.sort((a, b) => a.seq - b.seq || a.index - b.index);
  return { record, runId, run, manifest, events: withTimes(read) };
}

function readEvent(event: unknown, index: number): EventView {
  const at = `events[${index}]`;
  if (!isRecord(event)) fail(at, 'an object', event);
  const type = event['type'];
  const seq = event['seq'];
  const spanId = event['span_id'];
  const parent = event['parent_span_id'];
  if (typeof type !== 'string' || type === '') fail(`${at}.type`, 'a non-empty string', type);
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0)
    fail(`${at}.seq`, 'an integer >= 0', seq);
  if (typeof spanId !== 'string' || spanId === '')
    fail(`${at}.span_id`, 'a non-empty string', spanId);
  if (parent !== null && parent !== undefined && typeof parent !== 'string')
    fail(`${at}.parent_span_id`, 'a string or null', parent);
  // A reader requires only non-empty strings here (docs/spec.md §5): a time that is not
  // ISO 8601 is NaN for now and borrows its neighbour's below.
  const start = instant(event['ts_start']);
  const endText = event['ts_end'];
  const end = endText === null || endText === undefined ? null : instant(endText);
  return {
    event,
    index,
    type,
    seq,
    spanId,
    parentSpanId: typeof parent === 'string' ? parent : null,
    start,
    end,
  };
}

/** An ISO 8601 time with a zone as milliseconds since the epoch, else NaN. */
function instant(value: unknown): number {
  return typeof value === 'string' && /(Z|[+-]\d{2}:\d{2})$/i.test(value) ? Date.parse(value) : NaN;
}

/**
 * Events in seq order with a start time each: one whose ts_start is not an ISO 8601 time takes the
 * start of the event before it (the first such, of the first timed event), and an unreadable
 * ts_end becomes none. A record with no readable time at all cannot be placed on a timeline.
 */
function withTimes(events: readonly EventView[]): EventView[] {
  const first = events.find((e) => !Number.isNaN(e.start));
  if (first === undefined && events.length > 0) {
    fail(
      "some event's ts_start",
      'an ISO 8601 date-time with a zone',
      events[0]?.event['ts_start'],
    );
  }
  let previous = first?.start ?? 0;
  return events.map((e) => {
    const start = Number.isNaN(e.start) ? previous : e.start;
    previous = start;
    const end = e.end === null || Number.isNaN(e.end) ? null : e.end;
    return start === e.start && end === e.end ? e : { ...e, start, end };
  });
}

function fail(at: string, expected: string, got: unknown): never {
  throw new OtlpError(
    'OTLP_NOT_A_RECORD',
    `expected ${at} to be ${expected}, got ${describe(got)}`,
  );
}
