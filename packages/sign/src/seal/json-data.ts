// Input checks shared by the sealing steps: plain objects, deep copies as JSON data, and coded
// errors located in the caller's input.
import { CanonicalError, canonical } from '@runback/canonical';
import { SignError } from '../errors.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A deep copy as JSON data. canonical() runs first because JSON.stringify would silently turn
 * NaN and Infinity into null, and writers must refuse them (docs/spec.md §7).
 */
export function jsonCopy(value: unknown, pointer: string): unknown {
  try {
    canonical(value);
  } catch (err) {
    throw relocate(err, pointer);
  }
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** Re-roots a CanonicalError's JSON Pointer at `prefix`, so it locates the value in the input. */
export function relocate(err: unknown, prefix: string): unknown {
  if (!(err instanceof CanonicalError) || prefix === '') return err;
  const suffix = err.pointer === '' ? '' : ` at ${err.pointer}`;
  const message =
    suffix !== '' && err.message.endsWith(suffix)
      ? err.message.slice(0, -suffix.length)
      : err.message;
  return new CanonicalError(err.code, message, prefix + err.pointer);
}

export function recordInvalid(message: string): SignError {
  return new SignError('RECORD_INVALID', message);
}
