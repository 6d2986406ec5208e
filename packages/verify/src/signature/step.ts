// Step 6, signature: who made the record (docs/spec.md §5.6). The chain and the
// digests prove only internal consistency; the signature over
// content_digest + ":" + cassette_digest ties them to a key.
import type { SignatureErrorCode, VerifyNoteCode } from '../codes.js';
import type { SignatureOutcome, VerifyError, VerifyNote } from '../result.js';
import type { RecordParts } from '../steps/context.js';
import { checkSignature, type TrustPolicy } from './trust.js';

/** The signature step's outcome, its failure or note, and the signer when known. */
export interface SignatureStepResult {
  readonly outcome: SignatureOutcome;
  readonly errors: VerifyError[];
  readonly notes: VerifyNote[];
  readonly signer?: { readonly alg: string; readonly key_id?: string };
}

const NOTE_CODES: Partial<Record<SignatureOutcome, VerifyNoteCode>> = {
  unsigned: 'SIGNATURE_UNSIGNED',
  'no-key': 'SIGNATURE_NO_KEY',
  'valid-unpinned': 'SIGNATURE_UNPINNED',
};

const ERROR_CODES: Partial<Record<SignatureOutcome, SignatureErrorCode>> = {
  invalid: 'SIGNATURE_INVALID',
  revoked: 'SIGNATURE_REVOKED',
};

/** Evaluates manifest.signature against the pinned, revoked and HMAC keys of the policy. */
export function checkRecordSignature(parts: RecordParts, trust: TrustPolicy): SignatureStepResult {
  const check = checkSignature(parts.manifest, trust);
  const errors: VerifyError[] = [];
  const notes: VerifyNote[] = [];
  // Failures keep the precise `expected X, got Y` reason; notes explain the outcome plainly.
  const errorCode = ERROR_CODES[check.outcome];
  const noteCode = NOTE_CODES[check.outcome];
  if (errorCode !== undefined) {
    errors.push({
      check: 'signature',
      code: errorCode,
      message: check.message ?? defaultMessage(check.outcome),
    });
  }
  if (noteCode !== undefined) {
    notes.push({ check: 'signature', code: noteCode, message: defaultMessage(check.outcome) });
  }
  const signer =
    check.alg === undefined
      ? undefined
      : check.keyId === undefined
        ? { alg: check.alg }
        : { alg: check.alg, key_id: check.keyId };
  return signer === undefined
    ? { outcome: check.outcome, errors, notes }
    : { outcome: check.outcome, errors, notes, signer };
}

function defaultMessage(outcome: SignatureOutcome): string {
  switch (outcome) {
    case 'unsigned':
      return 'the record is not signed: nothing proves who produced it';
    case 'no-key':
      return 'the record is signed with a shared HMAC key (or an Ed25519 key it does not include): provide that key to check the signature';
    case 'valid-unpinned':
      return "the signature is sound, but its key is not pinned: pin the signer's public key to prove who made the record";
    case 'revoked':
      return 'the signature is sound but its key has been revoked';
    case 'invalid':
      return 'the signature does not verify';
    default:
      return 'the signature verifies with a trusted key';
  }
}
