// Coded errors. Conversion refuses input it cannot read faithfully rather than guessing: every
// refusal is an OtlpError with a stable code and an "expected X, got Y" message that names
// where in the input the problem is.

/** Stable codes carried by {@link OtlpError}. */
export type OtlpErrorCode =
  /** The bytes are not strict JSON (bad UTF-8, syntax, duplicate members, too deep). */
  | 'OTLP_NOT_JSON'
  /** The input is larger than the configured limit (bytes or spans). */
  | 'OTLP_TOO_LARGE'
  /** A member of the OTLP document has the wrong type or an impossible value. */
  | 'OTLP_BAD_FIELD'
  /** The document holds no span with a `gen_ai.operation.name` (nothing to import). */
  | 'OTLP_NO_GENAI_SPANS'
  /** GenAI spans of more than one trace, and no trace id was chosen. */
  | 'OTLP_MULTIPLE_TRACES'
  /** The chosen trace id names no trace with GenAI spans. */
  | 'OTLP_TRACE_NOT_FOUND'
  /** Two spans of one trace share a span id. */
  | 'OTLP_DUPLICATE_SPAN'
  /** A `runback.event` attribute that is not the JSON of a runback event. */
  | 'OTLP_BAD_RUNBACK_EVENT'
  /** The record to export is not shaped like a runback record. */
  | 'OTLP_NOT_A_RECORD';

/** A conversion refused its input: a TypeError with a stable code. */
export class OtlpError extends TypeError {
  /** Stable, machine-readable reason. */
  readonly code: OtlpErrorCode;

  constructor(code: OtlpErrorCode, message: string) {
    super(message);
    this.name = 'OtlpError';
    this.code = code;
  }
}

/** A short description of a value for the "got Y" half of a message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean')
    return `${typeof value} ${String(value)}`;
  return typeof value;
}
