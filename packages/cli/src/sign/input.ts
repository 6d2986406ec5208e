// What `runback sign` accepts: an unsealed record `{ run, events }` (optionally with $schema
// and a manifest) or a full record. Only `run` and `events` are taken: every hash, digest and
// the manifest are recomputed by sealRecord.
import { readJsonStrict } from '@runback/verify';
import { CliError } from '../errors.js';

/** The parts of the input that are sealed, and what was set aside. */
export interface SignInput {
  readonly run: Record<string, unknown>;
  readonly events: readonly Record<string, unknown>[];
  /** The input had a manifest (it was a sealed record): its digests and signature are replaced. */
  readonly hadManifest: boolean;
  /** Top-level members other than $schema, manifest, run and events: not carried over. */
  readonly ignoredMembers: readonly string[];
}

const KNOWN = new Set(['$schema', 'manifest', 'run', 'events']);

/** Parses and checks the input; a malformed one is an invalid-input error (exit 1). */
export function readSignInput(bytes: Uint8Array, name: string): SignInput {
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) {
    throw new CliError(
      'SIGN_INPUT_NOT_JSON',
      `cannot read ${name} as JSON: ${parsed.error.message}`,
      {
        hint: 'The input must be one JSON object { run, events } (strict UTF-8, no duplicate members, finite numbers).',
      },
    );
  }
  const value = parsed.value;
  if (!isObject(value)) {
    throw shapeError(name, `expected a JSON object { run, events }, got ${describe(value)}`);
  }
  const run = value['run'];
  if (!isObject(run)) {
    throw shapeError(
      name,
      `expected a "run" member holding the run summary object, got ${describe(run)}`,
    );
  }
  const events = value['events'];
  if (!Array.isArray(events)) {
    throw shapeError(
      name,
      `expected an "events" member holding the array of events, got ${describe(events)}`,
    );
  }
  events.forEach((event: unknown, index) => {
    if (!isObject(event))
      throw shapeError(
        name,
        `expected events[${index}] to be an event object, got ${describe(event)}`,
      );
  });
  return {
    run,
    events: events as Record<string, unknown>[],
    hadManifest: value['manifest'] !== undefined,
    ignoredMembers: Object.keys(value).filter((key) => !KNOWN.has(key)),
  };
}

function shapeError(name: string, message: string): CliError {
  return new CliError('SIGN_INPUT_MALFORMED', `${name}: ${message}`, {
    hint: 'Give an unsealed record { "run": {...}, "events": [...] } or a full runback record.',
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
