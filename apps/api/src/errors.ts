// One error shape for every 4xx and 5xx answer: `{ "error": { "code", "message" } }`, with a
// stable SCREAMING_SNAKE code from this union and an "expected X, got Y" message.

/** Every error code the API answers with. */
export type ApiErrorCode =
  | 'BODY_TOO_LARGE'
  | 'MALFORMED_JSON'
  | 'VALIDATION_FAILED'
  | 'EVENT_INVALID'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'RUN_SEALED'
  | 'RUN_NOT_SEALED'
  | 'SEQ_TAKEN'
  | 'IDEMPOTENCY_KEY_REQUIRED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_READY'
  | 'LOG_DISABLED'
  | 'TREE_SIZE_OUT_OF_RANGE'
  | 'INTERNAL';

/** The HTTP statuses the codes map to. */
export type ApiErrorStatus = 400 | 401 | 404 | 409 | 413 | 415 | 422 | 500 | 503;

/** The JSON body of every error answer. */
export interface ApiErrorBody {
  readonly error: { readonly code: ApiErrorCode; readonly message: string };
}

/** An error that becomes an HTTP answer with its status and the one error shape. */
export class ApiError extends Error {
  readonly status: ApiErrorStatus;
  readonly code: ApiErrorCode;

  constructor(status: ApiErrorStatus, code: ApiErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }

  /** The answer's body. */
  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

/** `describe(value)` for "got Y" parts of messages: a short, safe description. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : JSON.stringify(value);
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'number':
    case 'bigint':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    default:
      return `a ${typeof value}`;
  }
}
