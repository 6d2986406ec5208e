// @runback/replay-digest: the oracle stream that makes a record re-executable.
export { ReplayDigestError, type ReplayDigestErrorCode } from './errors.js';
export { parseKeyProjection, projectKeyInput, type KeyProjection } from './projection.js';
export {
  fetchKey,
  llmKey,
  oracleEntryOf,
  oracleEntryText,
  toolKey,
  type KnownMemberTexts,
  type OracleEntry,
  type OutputReading,
} from './oracle-entry.js';
export {
  CassetteBuilder,
  cassetteDigest,
  cassetteDigestsByReading,
  entryTextsByReading,
  cassetteStep,
  seqOrder,
  type CassetteDigest,
  type CassetteDigestsByReading,
  type EntryTexts,
} from './cassette.js';
