/** Stable codes for events that cannot enter the oracle stream. */
export type ReplayDigestErrorCode =
  'ORACLE_MALFORMED_EVENT' | 'ORACLE_BAD_PROJECTION' | 'CASSETTE_OUT_OF_ORDER';

/**
 * An `llm`, `tool` or `env` event that lacks what its replay key is made of, or a malformed
 * `key_projection`. A TypeError (malformed input) with a stable `code`.
 */
export class ReplayDigestError extends TypeError {
  readonly code: ReplayDigestErrorCode;
  /** Position in the record's `events` array of the offending event, when known. */
  eventIndex?: number;

  constructor(code: ReplayDigestErrorCode, message: string) {
    super(message);
    this.name = 'ReplayDigestError';
    this.code = code;
  }
}

/** "a string", "null", "an array"… for `expected X, got Y` messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${String(value)}`;
  return typeof value;
}
