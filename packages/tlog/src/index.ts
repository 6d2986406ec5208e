// @runback/tlog: an append-only Merkle log of runback record heads. Pure: no I/O, no clock,
// no global state. RFC 6962 / RFC 9162 hashing and proofs, C2SP signed notes, checkpoints and
// witness cosignatures (Ed25519 through @runback/sign).

/** Coded errors for malformed arguments. */
export { TlogError, type TlogErrorCode } from './errors.js';

/** Merkle hashing and proofs (RFC 9162 §2.1). */
export { EMPTY_ROOT, leafHash, nodeHash } from './hash.js';
export { consistencyProof, inclusionProof, rootHash } from './tree.js';
export { MerkleTree } from './merkle-tree.js';
export { verifyInclusion, type InclusionInput } from './verify-inclusion.js';
export { verifyConsistency, type ConsistencyInput } from './verify-consistency.js';
export type { ProofCheck, ProofFailureCode } from './proof-check.js';

/** Record heads as leaves, and a log as a list of heads. */
export {
  parseRecordHead,
  recordHeadOf,
  recordHeadText,
  recordLeafHash,
  type RecordHead,
} from './record-head.js';
export { indexOfRun, proveConsistency, proveInclusion, treeHeadOf, type TreeHead } from './log.js';

/** Signed checkpoints (C2SP signed-note, tlog-checkpoint, tlog-cosignature). */
export { formatCheckpoint, parseCheckpoint, type Checkpoint } from './checkpoint.js';
export { parseVerifierKey, verifierKeyText } from './note.js';
export {
  checkpointOfNote,
  cosignCheckpoint,
  readCheckpoint,
  signCheckpoint,
  type CheckpointFailureCode,
  type CheckpointRead,
  type CheckpointTrust,
  type VerifiedCheckpoint,
} from './signed-checkpoint.js';
export type { Cosignature } from './cosignature.js';

/** Proof documents that travel with a record or bundle. */
export {
  CONSISTENCY_SCHEMA,
  INCLUSION_SCHEMA,
  consistencyProofDocument,
  inclusionProofDocument,
  verifyConsistencyProof,
  verifyInclusionProof,
  type ConsistencyProofDocument,
  type InclusionProofDocument,
  type LogProofErrorCode,
  type LogProofResult,
} from './proof-document.js';
