// The stable codes of runback export and runback import (--otlp); part of CliErrorCode.
import type { OtlpErrorCode } from '@runback/otlp';

export type OtlpCommandErrorCode =
  // Usage mistakes.
  | 'USAGE_NO_FORMAT'
  | 'USAGE_BAD_TRACE_ID'
  | 'USAGE_BAD_LIMIT'
  // runback export
  | 'EXPORT_NOT_JSON'
  | 'EXPORT_WRITE_FAILED'
  // runback import
  | 'IMPORT_CANNOT_SEAL'
  | 'IMPORT_NOT_VERIFIABLE'
  | 'IMPORT_WRITE_FAILED'
  // What @runback/otlp refuses (OTLP_NOT_JSON, OTLP_BAD_FIELD, OTLP_NOT_A_RECORD, …).
  | OtlpErrorCode;
