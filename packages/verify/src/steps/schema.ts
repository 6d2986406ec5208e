// Step 1, schema: the record is shaped like a record (docs/spec.md §5.1). Only structure is
// checked here; what the summary claims (run ids, counts, seq) is the `consistent` step's.
import { describe, isObject, StepErrors, type RecordParts, type StepResult } from './context.js';

/** The schema identifiers a reader accepts: the current one and the legacy alias. */
export const ACCEPTED_SCHEMAS: readonly string[] = ['runback.audit/v2', 'runback.cassette/v1'];

/** The schema identifier writers emit. */
export const CURRENT_SCHEMA = 'runback.audit/v2';

/** Checks the top-level shape and every event's base members. */
export function checkSchema(parts: RecordParts): StepResult {
  const out = new StepErrors('schema');
  const { record } = parts;
  if (record === null) {
    out.add(
      'SCHEMA_NOT_OBJECT',
      'expected a record (a JSON object with $schema, manifest, run and events), got something else',
    );
    return out.result();
  }
  const schema = record['$schema'];
  if (typeof schema !== 'string' || !ACCEPTED_SCHEMAS.includes(schema)) {
    out.add(
      'SCHEMA_UNKNOWN',
      `expected $schema to be "runback.audit/v2" or "runback.cassette/v1", got ${describe(schema)}`,
    );
  }
  if (parts.manifest === null)
    out.add(
      'SCHEMA_MANIFEST',
      `expected manifest to be an object, got ${describe(record['manifest'])}`,
    );
  if (parts.run === null)
    out.add('SCHEMA_RUN', `expected run to be an object, got ${describe(record['run'])}`);
  if (parts.events === null) {
    out.add('SCHEMA_EVENTS', `expected events to be an array, got ${describe(record['events'])}`);
  } else {
    checkEvents(parts.events, out);
  }
  return out.result();
}

/** Each event: an object with the base members of the format, of the right JSON types. */
function checkEvents(events: readonly unknown[], out: StepErrors): void {
  for (let i = 0; i < events.length; i++) checkEventSchema(events[i], i, out);
}

/** The schema rule for the event at `index`. */
export function checkEventSchema(event: unknown, index: number, out: StepErrors): void {
  if (!isObject(event)) {
    out.add(
      'SCHEMA_EVENT',
      `expected event ${index} to be an object, got ${describe(event)}`,
      index,
    );
    return;
  }
  const problem = eventBaseProblem(event);
  if (problem !== null) out.add('SCHEMA_EVENT', `event ${index}: ${problem}`, index);
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function nonEmptyProblem(member: string, value: unknown): string {
  return `expected ${member} to be a non-empty string, got ${describe(value)}`;
}

function eventBaseProblem(event: Record<string, unknown>): string | null {
  if (event['schema_version'] !== 1)
    return `expected schema_version 1, got ${describe(event['schema_version'])}`;
  // Each member read by its own name, not through a loop over names: one property load each
  // instead of a keyed load that sees three names (this runs once per event).
  if (!isNonEmptyString(event['span_id'])) return nonEmptyProblem('span_id', event['span_id']);
  if (!isNonEmptyString(event['type'])) return nonEmptyProblem('type', event['type']);
  if (!isNonEmptyString(event['ts_start'])) return nonEmptyProblem('ts_start', event['ts_start']);
  // ts_end is null on run-start and env events and on spans that never closed (spec §5.1).
  const end = event['ts_end'];
  if (end !== null && (typeof end !== 'string' || end === ''))
    return `expected ts_end to be a non-empty string or null, got ${describe(end)}`;
  const parent = event['parent_span_id'];
  if (parent !== null && typeof parent !== 'string') {
    return `expected parent_span_id to be a string or null, got ${describe(parent)}`;
  }
  if (typeof event['_hash'] !== 'string')
    return `expected _hash to be a string, got ${describe(event['_hash'])}`;
  return null;
}
