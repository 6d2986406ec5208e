// --generated-at of the commands that seal a record: manifest.generated_at as an ISO 8601 UTC
// time with milliseconds (what Date.prototype.toISOString() prints), or now.
import { usageError } from '../errors.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function generatedAtOf(
  value: string | undefined,
  now: () => Date = () => new Date(),
): string {
  const text = value ?? now().toISOString();
  if (
    !ISO_MS.test(text) ||
    Number.isNaN(Date.parse(text)) ||
    new Date(text).toISOString() !== text
  ) {
    throw usageError(
      'USAGE_BAD_GENERATED_AT',
      `expected --generated-at to be an ISO 8601 UTC time with milliseconds, got ${JSON.stringify(text)}`,
      'Write it like 2026-06-14T02:47:13.950Z (what Date.prototype.toISOString() prints).',
    );
  }
  return text;
}
