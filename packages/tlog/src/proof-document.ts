// The proof documents runback writes and reads (JSON, hashes in lowercase hex like every
// digest in a record, docs/spec.md §2):
//
//   inclusion    { "$schema": "runback.tlog-inclusion/v1", "head": {run_id, content_digest,
//                  cassette_digest}, "leaf_index", "tree_size", "proof": [hex…],
//                  "checkpoint": "<signed checkpoint note>" }
//   consistency  { "$schema": "runback.tlog-consistency/v1", "old_checkpoint": "<note>",
//                  "new_checkpoint": "<note>", "proof": [hex…] }
//
// Each carries its signed checkpoint(s), so it verifies offline against the log's public key
// alone (and the witnesses' keys when they are required).
import { bytesToHex } from './note.js';
import { HASH_SIZE } from './hash.js';
import { parseRecordHead, recordLeafHash, type RecordHead } from './record-head.js';
import {
  readCheckpoint,
  type CheckpointFailureCode,
  type CheckpointTrust,
} from './signed-checkpoint.js';
import type { Cosignature } from './cosignature.js';
import type { ProofFailureCode } from './proof-check.js';
import { verifyConsistency } from './verify-consistency.js';
import { verifyInclusion } from './verify-inclusion.js';
import type { Checkpoint } from './checkpoint.js';

export const INCLUSION_SCHEMA = 'runback.tlog-inclusion/v1';
export const CONSISTENCY_SCHEMA = 'runback.tlog-consistency/v1';

/** An inclusion proof document. */
export interface InclusionProofDocument {
  readonly $schema: typeof INCLUSION_SCHEMA;
  readonly head: RecordHead;
  readonly leaf_index: number;
  readonly tree_size: number;
  readonly proof: readonly string[];
  readonly checkpoint: string;
}

/** A consistency proof document. */
export interface ConsistencyProofDocument {
  readonly $schema: typeof CONSISTENCY_SCHEMA;
  readonly old_checkpoint: string;
  readonly new_checkpoint: string;
  readonly proof: readonly string[];
}

/** Why a proof document does not verify. */
export type LogProofErrorCode =
  | 'PROOF_DOCUMENT_MALFORMED'
  | 'PROOF_HEAD_MISMATCH'
  | 'PROOF_SIZE_MISMATCH'
  | 'PROOF_ORIGIN_MISMATCH'
  | CheckpointFailureCode
  | ProofFailureCode;

/** The result of checking a proof document; `errors` is empty exactly when `ok`. */
export interface LogProofResult {
  readonly ok: boolean;
  readonly errors: readonly { readonly code: LogProofErrorCode; readonly message: string }[];
  /** The checkpoint the proof is against (the newer one for consistency), once it verified. */
  readonly checkpoint?: { readonly origin: string; readonly size: number; readonly root: string };
  readonly witnesses: readonly Cosignature[];
}

/** Builds an inclusion proof document. */
export function inclusionProofDocument(input: {
  readonly head: RecordHead;
  readonly leafIndex: number;
  readonly treeSize: number;
  readonly proof: readonly Uint8Array[];
  readonly checkpoint: string;
}): InclusionProofDocument {
  return {
    $schema: INCLUSION_SCHEMA,
    head: parseRecordHead(input.head),
    leaf_index: input.leafIndex,
    tree_size: input.treeSize,
    proof: input.proof.map(bytesToHex),
    checkpoint: input.checkpoint,
  };
}

/** Builds a consistency proof document. */
export function consistencyProofDocument(input: {
  readonly oldCheckpoint: string;
  readonly newCheckpoint: string;
  readonly proof: readonly Uint8Array[];
}): ConsistencyProofDocument {
  return {
    $schema: CONSISTENCY_SCHEMA,
    old_checkpoint: input.oldCheckpoint,
    new_checkpoint: input.newCheckpoint,
    proof: input.proof.map(bytesToHex),
  };
}

type Err = LogProofResult['errors'][number];
const fail = (
  code: LogProofErrorCode,
  message: string,
  extra: Partial<LogProofResult> = {},
): LogProofResult => ({
  ok: false,
  errors: [{ code, message } satisfies Err],
  witnesses: [],
  ...extra,
});

function summary(c: Checkpoint): NonNullable<LogProofResult['checkpoint']> {
  return { origin: c.origin, size: c.size, root: bytesToHex(c.root) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const HEX_HASH = /^[0-9a-f]{64}$/;

function hashList(value: unknown): Uint8Array[] | null {
  if (!Array.isArray(value)) return null;
  const out: Uint8Array[] = [];
  for (const h of value) {
    if (typeof h !== 'string' || !HEX_HASH.test(h)) return null;
    const bytes = new Uint8Array(HASH_SIZE);
    for (let i = 0; i < HASH_SIZE; i++) bytes[i] = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16);
    out.push(bytes);
  }
  return out;
}

/**
 * Verifies an inclusion proof document: the checkpoint is signed by the pinned log key (and
 * cosigned by every required witness), the document's tree size is the checkpoint's, and the
 * head's leaf is in that tree. With `expectHead`, the proven head must be that record's.
 * Never throws for a bad document; throws only for malformed keys.
 */
export function verifyInclusionProof(
  doc: unknown,
  trust: CheckpointTrust & { readonly expectHead?: RecordHead },
): LogProofResult {
  if (!isObject(doc) || doc['$schema'] !== INCLUSION_SCHEMA) {
    return fail(
      'PROOF_DOCUMENT_MALFORMED',
      `expected an object with "$schema": "${INCLUSION_SCHEMA}"`,
    );
  }
  let head: RecordHead;
  try {
    head = parseRecordHead(doc['head']);
  } catch (err) {
    return fail('PROOF_DOCUMENT_MALFORMED', (err as Error).message);
  }
  const proof = hashList(doc['proof']);
  const index = doc['leaf_index'];
  const size = doc['tree_size'];
  if (proof === null || typeof index !== 'number' || typeof size !== 'number') {
    return fail(
      'PROOF_DOCUMENT_MALFORMED',
      'expected leaf_index and tree_size numbers and proof as an array of 64-digit lowercase hex hashes',
    );
  }
  const read = readCheckpoint(doc['checkpoint'], trust);
  if (!read.ok) return fail(read.code, read.message);
  const cp = summary(read.checkpoint);
  if (read.checkpoint.size !== size) {
    return fail(
      'PROOF_SIZE_MISMATCH',
      `expected tree_size to be the checkpoint's size ${read.checkpoint.size}, got ${size}`,
      { checkpoint: cp },
    );
  }
  if (trust.expectHead !== undefined) {
    const want = parseRecordHead(trust.expectHead);
    for (const member of ['run_id', 'content_digest', 'cassette_digest'] as const) {
      if (want[member] !== head[member]) {
        return fail(
          'PROOF_HEAD_MISMATCH',
          `expected the proof's ${member} to be the record's ${want[member]}, got ${head[member]}`,
          { checkpoint: cp },
        );
      }
    }
  }
  const check = verifyInclusion({
    leafIndex: index,
    treeSize: size,
    leafHash: recordLeafHash(head),
    proof,
    root: read.checkpoint.root,
  });
  if (!check.ok)
    return fail(check.code, check.message, { checkpoint: cp, witnesses: read.witnesses });
  return { ok: true, errors: [], checkpoint: cp, witnesses: read.witnesses };
}

/**
 * Verifies a consistency proof document: both checkpoints are signed by the pinned log key,
 * name the same origin, and the proof shows the newer tree extends the older one. Required
 * witnesses must have cosigned the newer checkpoint.
 */
export function verifyConsistencyProof(doc: unknown, trust: CheckpointTrust): LogProofResult {
  if (!isObject(doc) || doc['$schema'] !== CONSISTENCY_SCHEMA) {
    return fail(
      'PROOF_DOCUMENT_MALFORMED',
      `expected an object with "$schema": "${CONSISTENCY_SCHEMA}"`,
    );
  }
  const proof = hashList(doc['proof']);
  if (proof === null)
    return fail(
      'PROOF_DOCUMENT_MALFORMED',
      'expected proof as an array of 64-digit lowercase hex hashes',
    );
  const older = readCheckpoint(doc['old_checkpoint'], { logKey: trust.logKey });
  if (!older.ok) return fail(older.code, `old checkpoint: ${older.message}`);
  const newer = readCheckpoint(doc['new_checkpoint'], trust);
  if (!newer.ok) return fail(newer.code, `new checkpoint: ${newer.message}`);
  const cp = summary(newer.checkpoint);
  if (older.checkpoint.origin !== newer.checkpoint.origin) {
    return fail(
      'PROOF_ORIGIN_MISMATCH',
      `expected both checkpoints from ${older.checkpoint.origin}, got ${newer.checkpoint.origin}`,
      { checkpoint: cp },
    );
  }
  const check = verifyConsistency({
    size1: older.checkpoint.size,
    size2: newer.checkpoint.size,
    root1: older.checkpoint.root,
    root2: newer.checkpoint.root,
    proof,
  });
  if (!check.ok)
    return fail(check.code, check.message, { checkpoint: cp, witnesses: newer.witnesses });
  return { ok: true, errors: [], checkpoint: cp, witnesses: newer.witnesses };
}
