// The result object every call site returns (docs/spec.md §5.7).
import type { VerifyErrorCode, VerifyNoteCode } from './codes.js';

/** The six checks, in pipeline order. */
export type CheckName = 'schema' | 'consistent' | 'chain' | 'digest' | 'cassette' | 'signature';

/** Outcome of the signature check. `revoked` counts as invalid in the verdict. */
export type SignatureOutcome =
  'unsigned' | 'no-key' | 'invalid' | 'revoked' | 'valid-unpinned' | 'valid';

/** `valid`: integrity and a pinned signer; `unverified`: intact but signer unproven; `invalid`: anything broken. */
export type Verdict = 'valid' | 'unverified' | 'invalid';

/** One failed check, with a stable code and, where it applies, the first bad event's index. */
export interface VerifyError {
  readonly check: CheckName;
  /** Stable SCREAMING_SNAKE code, e.g. CHAIN_HASH_MISMATCH. */
  readonly code: VerifyErrorCode;
  readonly message: string;
  /** Index in the record's `events` array of the first event concerned. */
  readonly event_index?: number;
}

/**
 * A note that is not a failure: why a signature outcome is not `valid` (unsigned, no-key,
 * valid-unpinned), or that the cassette matched only under the published output reading.
 */
export interface VerifyNote {
  readonly check: 'signature' | 'cassette';
  readonly code: VerifyNoteCode;
  readonly message: string;
}

/** The verdict of one record. */
export interface VerifyResult {
  readonly verdict: Verdict;
  /** schema && consistent && chain && digest && cassette. */
  readonly integrity: boolean;
  /** integrity && signature === "valid". */
  readonly valid: boolean;
  readonly checks: {
    readonly schema: boolean;
    readonly consistent: boolean;
    readonly chain: boolean;
    readonly digest: boolean;
    readonly cassette: boolean;
    readonly signature: SignatureOutcome;
  };
  readonly errors: readonly VerifyError[];
  /** Why the signature is unsigned, keyless or unpinned, and how the cassette matched. */
  readonly notes: readonly VerifyNote[];
  /** Who signed, when the record carries a signature: its algorithm and, for Ed25519, the key id. */
  readonly signer?: { readonly alg: string; readonly key_id?: string };
}

/** The verdict rule of the format (seed, "The six checks"); revoked counts as invalid. */
export function verdictOf(integrity: boolean, signature: SignatureOutcome): Verdict {
  if (!integrity || signature === 'invalid' || signature === 'revoked') return 'invalid';
  return signature === 'valid' ? 'valid' : 'unverified';
}
