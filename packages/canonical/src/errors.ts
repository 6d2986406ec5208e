/** Stable codes for values that have no canonical form. */
export type CanonicalErrorCode =
  'CANONICAL_NON_FINITE_NUMBER' | 'CANONICAL_BIGINT' | 'CANONICAL_CYCLE';

/**
 * Thrown by `canonical` for a value that has no canonical JSON form. It is a `TypeError`
 * (malformed argument) that also carries a stable `code` and the JSON Pointer of the
 * offending value.
 */
export class CanonicalError extends TypeError {
  readonly code: CanonicalErrorCode;
  /** JSON Pointer (RFC 6901) of the offending value inside the input; `""` for the root. */
  readonly pointer: string;

  constructor(code: CanonicalErrorCode, message: string, pointer: string) {
    super(pointer === '' ? message : `${message} at ${pointer}`);
    this.name = 'CanonicalError';
    this.code = code;
    this.pointer = pointer;
  }
}
