// What the pipeline steps share: the record's parts (when present) and an error sink.
import type { VerifyErrorCode } from '../codes.js';
import type { CheckName, VerifyError } from '../result.js';

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>;

/** The record as the steps see it: each part is present only if it has the right JSON type. */
export interface RecordParts {
  readonly record: JsonObject | null;
  readonly manifest: JsonObject | null;
  readonly run: JsonObject | null;
  readonly events: readonly unknown[] | null;
}

/** The outcome of one boolean check: pass/fail plus its errors. */
export interface StepResult {
  readonly ok: boolean;
  readonly errors: VerifyError[];
}

/** Collects the errors of one check. */
export class StepErrors {
  readonly errors: VerifyError[] = [];
  constructor(private readonly check: CheckName) {}

  add(code: VerifyErrorCode, message: string, eventIndex?: number): void {
    this.errors.push(
      eventIndex === undefined
        ? { check: this.check, code, message }
        : { check: this.check, code, message, event_index: eventIndex },
    );
  }

  result(): StepResult {
    return { ok: this.errors.length === 0, errors: this.errors };
  }
}

/** Whether `value` is a non-array, non-null object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits a record into its parts, each null when missing or of the wrong type. */
export function partsOf(record: unknown): RecordParts {
  if (!isObject(record)) return { record: null, manifest: null, run: null, events: null };
  const { manifest, run, events } = record;
  return {
    record,
    manifest: isObject(manifest) ? manifest : null,
    run: isObject(run) ? run : null,
    events: Array.isArray(events) ? events : null,
  };
}

/** "a string", "null", "an array", "number 3"… for `expected X, got Y` messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const shown = value.length > 80 ? value.slice(0, 80) + '…' : value;
    return `"${shown}"`;
  }
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${String(value)}`;
  return typeof value;
}
