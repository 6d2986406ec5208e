// Defensive readers for members of a record that may hold anything: the viewer shows hostile
// or broken records too, so every member is checked before it is used.

export type Json = Record<string, unknown>;

export function objectOr(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : null;
}

export function stringOr(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

export function numberOr(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Milliseconds since the epoch of an ISO 8601 text, or null. */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** A one-line preview of any value, at most `max` characters. */
export function preview(value: unknown, max = 120): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else {
    try {
      text = JSON.stringify(value) ?? typeof value;
    } catch {
      // Parsed JSON always stringifies; this is a value from somewhere else (a cycle).
      text = `(${typeof value})`;
    }
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A number as text, or `?` when the member is not a number. */
export function numberText(value: unknown): string {
  return typeof value === 'number' ? String(value) : '?';
}
