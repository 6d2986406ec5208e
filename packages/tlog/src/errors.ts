// Coded errors for malformed arguments. A caller's mistake (a tree size that is not a safe
// integer, a key of the wrong length, an index outside the tree) throws a TlogError; a bad
// *proof* or *signature* from untrusted input is never thrown: the verifiers return a
// ProofCheck or a note verdict instead.

/** Stable codes carried by {@link TlogError}. */
export type TlogErrorCode =
  /** An argument has the wrong type (not bytes, not a string, not an integer). */
  | 'ARG_INVALID_TYPE'
  /** An index or size lies outside what the tree holds. */
  | 'ARG_OUT_OF_RANGE'
  /** A record head member is missing or is not lowercase hex of a SHA-256. */
  | 'HEAD_INVALID'
  /** A key name, origin or note text breaks the C2SP signed-note rules. */
  | 'NOTE_INVALID';

/** Thrown for a malformed argument: a TypeError with a stable code ("expected X, got Y"). */
export class TlogError extends TypeError {
  /** Stable, machine-readable reason. */
  readonly code: TlogErrorCode;

  constructor(code: TlogErrorCode, message: string) {
    super(message);
    this.name = 'TlogError';
    this.code = code;
  }
}

/** A short description of a value's type for "got Y" in messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'number') return `the number ${String(value)}`;
  return typeof value;
}

/** Checks that `value` is a safe integer ≥ 0 and returns it. */
export function expectSize(value: unknown, label: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TlogError(
      'ARG_INVALID_TYPE',
      `${label}: expected a safe integer >= 0, got ${describeValue(value)}`,
    );
  }
  return value;
}

/** Checks that `value` is a Uint8Array and returns it. */
export function expectBytes(value: unknown, label: string): Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new TlogError(
      'ARG_INVALID_TYPE',
      `${label}: expected a Uint8Array, got ${describeValue(value)}`,
    );
  }
  return value;
}

/** Checks that `value` is a number (any number: range checks belong to the caller). */
export function expectNumber(value: unknown, label: string): number {
  if (typeof value !== 'number') {
    throw new TlogError(
      'ARG_INVALID_TYPE',
      `${label}: expected a number, got ${describeValue(value)}`,
    );
  }
  return value;
}

/** A tree size or index: a safe integer >= 0. */
export function isSize(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
