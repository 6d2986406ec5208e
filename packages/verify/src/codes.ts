// The stable error codes of the result object: the contract every call site (CLI, HTTP API,
// web page) shares, so they are one typed union (docs/spec.md §5.7).
import type { JsonReadErrorCode } from './json/types.js';

/** Why the record could not be read as a record at all (`schema: false`). */
export type ReadErrorCode = JsonReadErrorCode | 'VERIFY_UNREADABLE' | 'VERIFY_NOT_JSON_DATA';

/** Step 1, schema. */
export type SchemaErrorCode =
  | 'SCHEMA_NOT_OBJECT'
  | 'SCHEMA_UNKNOWN'
  | 'SCHEMA_MANIFEST'
  | 'SCHEMA_RUN'
  | 'SCHEMA_EVENTS'
  | 'SCHEMA_EVENT';

/** Step 2, consistent. */
export type ConsistentErrorCode =
  | 'CONSISTENT_UNCHECKABLE'
  | 'CONSISTENT_RUN_ID'
  | 'CONSISTENT_EVENT_COUNT'
  | 'CONSISTENT_SEQ'
  | 'CONSISTENT_RUN_PHASES'
  | 'CONSISTENT_RUN_SUMMARY';

/** Step 3, chain. */
export type ChainErrorCode = 'CHAIN_NO_EVENTS' | 'CHAIN_NOT_HASHABLE' | 'CHAIN_HASH_MISMATCH';

/** Step 4, digest. */
export type DigestErrorCode =
  'DIGEST_NO_MANIFEST' | 'DIGEST_UNSUPPORTED_ALGORITHM' | 'DIGEST_UNCOMPUTABLE' | 'DIGEST_MISMATCH';

/** Step 5, cassette (the oracle codes come from events that cannot enter the stream). */
export type CassetteErrorCode =
  | 'CASSETTE_NO_REPLAY'
  | 'CASSETTE_UNSUPPORTED_ALGORITHM'
  | 'CASSETTE_NO_EVENTS'
  | 'CASSETTE_NOT_HASHABLE'
  | 'CASSETTE_MISMATCH'
  | 'CASSETTE_ENTRY_COUNT'
  | 'ORACLE_MALFORMED_EVENT'
  | 'ORACLE_BAD_PROJECTION'
  | 'CASSETTE_OUT_OF_ORDER';

/** Step 6, signature: failures. */
export type SignatureErrorCode = 'SIGNATURE_INVALID' | 'SIGNATURE_REVOKED';

/** Every code a {@link VerifyError} can carry. */
export type VerifyErrorCode =
  | ReadErrorCode
  | SchemaErrorCode
  | ConsistentErrorCode
  | ChainErrorCode
  | DigestErrorCode
  | CassetteErrorCode
  | SignatureErrorCode;

/** Every code a note can carry: signature outcomes that are not failures, and how the cassette matched. */
export type VerifyNoteCode =
  'SIGNATURE_UNSIGNED' | 'SIGNATURE_NO_KEY' | 'SIGNATURE_UNPINNED' | 'CASSETTE_READING_PUBLISHED';
