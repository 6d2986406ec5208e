// The outcome of checking a proof. A proof comes from untrusted input, so a bad one is a
// value with a stable code, never an exception.

/** Why a proof was rejected. */
export type ProofFailureCode =
  /** The leaf index is not below the tree size. */
  | 'PROOF_INDEX_OUT_OF_RANGE'
  /** The old tree is larger than the new one, or empty (a consistency proof needs one leaf). */
  | 'PROOF_SIZES_INVALID'
  /** The proof has more or fewer hashes than the tree shape calls for. */
  | 'PROOF_WRONG_LENGTH'
  /** A proof hash is not 32 bytes. */
  | 'PROOF_MALFORMED_HASH'
  /** The recomputed root is not the root given. */
  | 'PROOF_ROOT_MISMATCH';

/** `{ ok: true }`, or the reason a proof does not hold. */
export type ProofCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: ProofFailureCode; readonly message: string };

export const PROOF_OK: ProofCheck = { ok: true };

export function proofFailure(code: ProofFailureCode, message: string): ProofCheck {
  return { ok: false, code, message };
}
