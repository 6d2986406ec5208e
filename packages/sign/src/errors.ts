// Typed errors for malformed arguments. Everything this package throws for a caller's mistake
// is a `SignError`: a TypeError (the argument has the wrong shape) carrying a stable `code`
// that callers can branch on, and a message in the house "expected X, got Y" style.
//
// Signature *checks* never throw for a bad signature: `verifyEd25519`, `verifyHmacSha256` and
// `checkSignature` report a bad or malformed signature as `false` / an outcome, because a
// signature comes from the (untrusted) record, whereas keys and options come from the caller.

// isBytes: a Uint8Array from any realm (an iframe or vm context) or Node's Buffer subclass, the
// test @noble/curves applies to its own arguments.
import { isBytes } from '@noble/hashes/utils.js';

/** Stable codes carried by {@link SignError}. */
export type SignErrorCode =
  /** An argument that must be a Uint8Array (or a string or Uint8Array) is something else. */
  | 'ARG_INVALID_TYPE'
  /** A raw key or seed has the wrong number of bytes. */
  | 'KEY_WRONG_LENGTH'
  /** PEM text is not a single well-formed PEM block with the expected label. */
  | 'KEY_PEM_MALFORMED'
  /** DER bytes are not a well-formed SPKI / PKCS#8 structure. */
  | 'KEY_DER_MALFORMED'
  /** A well-formed key whose algorithm is not Ed25519 (OID 1.3.101.112, RFC 8410). */
  | 'KEY_NOT_ED25519'
  /** A PKCS#8 v2 key whose embedded public key does not belong to its private key. */
  | 'KEY_MISMATCH'
  /** The signer passed to `sealRecord` / `signRecord` is not a valid {@link Signer}. */
  | 'SIGNER_INVALID'
  /** The record (or record input) passed to `sealRecord` / `signRecord` is malformed. */
  | 'RECORD_INVALID'
  /** A malformed trust policy (thrown by @runback/verify's checkSignature and verify). */
  | 'TRUST_POLICY_INVALID';

/**
 * Thrown for a malformed argument (wrong type, wrong key length, unreadable PEM/DER, key of
 * another algorithm, malformed signer, record or trust policy). It is a `TypeError` with a
 * stable {@link SignErrorCode} in `code`; the message reads "expected X, got Y".
 */
export class SignError extends TypeError {
  /** Stable, machine-readable reason. */
  readonly code: SignErrorCode;

  constructor(code: SignErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignError';
    this.code = code;
  }
}

/** A short, human-readable description of a value for "got Y" in error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (isBytes(value)) return `${value.length} bytes`;
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  switch (typeof value) {
    case 'string':
      return value.length > 40
        ? `a string of ${value.length} characters`
        : `the string ${JSON.stringify(value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
