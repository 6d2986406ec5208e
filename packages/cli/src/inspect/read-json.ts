// Defensive readers for values of an untrusted record: each returns the value when it has the
// expected type, else null / undefined / [] — a malformed record still summarizes.

export type Json = Record<string, unknown>;

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A whole number, else null. */
export function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** A JSON object (not null, not an array), else undefined. */
export function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
