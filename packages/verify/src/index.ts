// @runback/verify: verify a runback record offline. Pure, no I/O; the CLI is @runback/verify-cli.
export { verify, verifyJson, type VerifyOptions } from './verify.js';
export { verifyStream, type ByteSource, type VerifyStreamOptions } from './stream/verify-stream.js';
export { recordBuffer } from './fast-path/record-buffer.js';
export {
  verdictOf,
  type CheckName,
  type SignatureOutcome,
  type Verdict,
  type VerifyError,
  type VerifyNote,
  type VerifyResult,
} from './result.js';
export type {
  CassetteErrorCode,
  ChainErrorCode,
  ConsistentErrorCode,
  DigestErrorCode,
  ReadErrorCode,
  SchemaErrorCode,
  SignatureErrorCode,
  VerifyErrorCode,
  VerifyNoteCode,
} from './codes.js';
export {
  assertTrustPolicy,
  checkSignature,
  type HmacKey,
  type SignatureCheck,
  type TrustPolicy,
} from './signature/trust.js';
export { ACCEPTED_SCHEMAS, CURRENT_SCHEMA } from './steps/schema.js';
export { CHAIN_ALGORITHM } from './steps/digest.js';
export { CASSETTE_ALGORITHM } from './steps/cassette.js';
export {
  decodeUtf8Strict,
  parseJsonStrict,
  readJsonStrict,
  type JsonParseResult,
  type JsonReadError,
} from './json/index.js';
