// Structured values in attributes. OTLP attributes are flat (strings, numbers, booleans and
// arrays of them); the GenAI conventions put structured content (messages, tool arguments) in a
// string attribute as JSON. runback writes that JSON in canonical form (docs/spec.md §2) so
// that equal values always give equal bytes.
import { canonical } from '@runback/canonical';

/** The canonical JSON text of a JSON value. */
export function jsonText(value: unknown): string {
  return canonical(value);
}

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a string, else undefined. */
export function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a finite number, else undefined. */
export function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
