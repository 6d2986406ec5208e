// The stable codes of the evidence commands (log, bundle, anchor, report) and of verify's
// bundle, proof, anchor and manifest checks; part of CliErrorCode.
export type EvidenceErrorCode =
  // Usage mistakes.
  | 'USAGE_BAD_ORIGIN'
  | 'USAGE_MISSING_KEY'
  | 'USAGE_BAD_KEY'
  | 'USAGE_BAD_TIME'
  | 'USAGE_BAD_FORMAT'
  | 'USAGE_UNKNOWN_SUBCOMMAND'
  // runback log
  | 'LOG_EXISTS'
  | 'LOG_NOT_FOUND'
  | 'LOG_CORRUPT'
  | 'LOG_LOCKED'
  | 'LOG_RECORD_INVALID'
  | 'LOG_RUN_ID_TAKEN'
  | 'LOG_RUN_NOT_FOUND'
  | 'LOG_NO_CHECKPOINT'
  | 'LOG_NOT_CHECKPOINTED'
  | 'LOG_CHECKPOINT_KEY'
  | 'LOG_NOT_APPEND_ONLY'
  | 'LOG_PROOF_NOT_JSON'
  | 'LOG_WITNESS_REFUSED'
  // runback bundle
  | 'BUNDLE_RECORD_INVALID'
  | 'BUNDLE_ARTIFACT_MISSING'
  | 'BUNDLE_ARTIFACT_MISMATCH'
  | 'BUNDLE_UNREADABLE'
  | 'BUNDLE_WRITE_FAILED'
  // runback anchor
  | 'ANCHOR_INPUT_INVALID'
  // runback report
  | 'REPORT_RECORD_INVALID';
