// Checking a record's signature against the verifier's trust policy (docs/spec.md §5.6). The
// `signature` step (./step.ts) turns the outcome into the result's errors and notes.
//
// Outcomes:
//   unsigned        manifest.signed is not true, or there is no signature (absent or null)
//   no-key          HMAC signature and no HMAC key; or Ed25519 without an inline pubkey and no
//                   revoked or pinned key under which it is sound
//   invalid         the maths fails; the value is not lowercase hex of the right length; the alg
//                   is unknown (never treated as HMAC); the inline pubkey is not exactly one
//                   Ed25519 SPKI PEM; the manifest's digests are not strings; or the signature
//                   member is present but not an object
//   revoked         Ed25519 sound, but under a revoked key (revoked wins over pinned)
//   valid-unpinned  Ed25519 sound, under a key that is not pinned (also when nothing is pinned)
//   valid           Ed25519 sound under a pinned key, or the HMAC tag matches one of the HMAC
//                   keys (each compared in constant time)
//
// The manifest is untrusted input: any JSON value gives an outcome, never an exception. The
// trust policy is the caller's own configuration: a malformed one throws, so a typo in a pinned
// key cannot silently downgrade every record to "valid-unpinned".
//
// Only own members are read, so an object whose prototype carries a member (or a JSON
// `__proto__` member) cannot supply a signature. `key_id` in the manifest is not consulted: it
// is not covered by the signature, and the format gives it no role in the outcome; the
// `keyId` reported is always computed from the key that actually verified.
import {
  isTorsionFreePublicKey,
  keyId,
  normalizeKey,
  publicKeyFromPem,
  SignError,
  verifyEd25519,
  verifyHmacSha256,
  type KeyInput,
} from '@runback/sign';
import type { SignatureOutcome } from '../result.js';

/** An HMAC-SHA256 key; a string is its UTF-8 bytes. */
export type HmacKey = string | Uint8Array;

/** What the verifier trusts: pinned and revoked Ed25519 keys and optional HMAC keys. */
export interface TrustPolicy {
  /** Ed25519 public keys whose signatures count as `valid`: the current key and rotated-out ones. */
  readonly pinned?: readonly KeyInput[] | undefined;
  /** Ed25519 public keys whose signatures count as `revoked`, even when also pinned. */
  readonly revoked?: readonly KeyInput[] | undefined;
  /**
   * The shared HMAC-SHA256 key, or several (the current key and rotated-out ones): a tag that
   * matches any of them counts as `valid`. An empty list is no key at all.
   */
  readonly hmacKey?: HmacKey | readonly HmacKey[] | undefined;
}

/** The result of {@link checkSignature}. */
export interface SignatureCheck {
  readonly outcome: SignatureOutcome;
  /** `manifest.signature.alg`, when it is a string. */
  readonly alg?: string;
  /** The key id (see `keyId`) of the key the signature is sound under, when known. */
  readonly keyId?: string;
  /** For every outcome but `valid`: why, in "expected X, got Y" form. */
  readonly message?: string;
}

interface TrustedKey {
  readonly raw: Uint8Array;
  /**
   * The key id: sha256 of the key's 44-byte SPKI DER, so equal ids are equal DER bytes. Keys
   * are compared by it, never by PEM text.
   */
  readonly id: string;
}

/**
 * Checks `manifest.signature` over `content_digest + ":" + replay.cassette_digest` against a
 * trust policy and returns one of the six outcomes. Ed25519 verification is strict RFC 8032;
 * keys are compared by their SPKI DER bytes, never by PEM text.
 *
 * Never throws for any `manifest` value (null, arrays, numbers, malformed members all give an
 * outcome).
 *
 * @throws {SignError} `TRUST_POLICY_INVALID` for a malformed trust policy, e.g. a pinned key that
 *   is not an Ed25519 public key.
 */
export function checkSignature(manifest: unknown, trust?: TrustPolicy): SignatureCheck {
  const policy = readPolicy(trust);
  try {
    return check(manifest, policy);
  } catch (err) {
    // Unreachable for JSON input (every member is type-checked before use); kept so that a
    // hostile non-JSON value (a throwing getter, a Proxy) still yields an outcome, not a crash.
    return {
      outcome: 'invalid',
      message: `expected a checkable manifest, got an error: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

interface Policy {
  readonly pinned: readonly TrustedKey[];
  readonly revoked: readonly TrustedKey[];
  readonly hmacKeys: readonly HmacKey[];
}

function check(manifest: unknown, policy: Policy): SignatureCheck {
  if (!isObject(manifest)) {
    return {
      outcome: 'unsigned',
      message: `expected a manifest object, got ${describeValue(manifest)}`,
    };
  }
  const signed = own(manifest, 'signed');
  const signature = own(manifest, 'signature');
  if (signed !== true) {
    return {
      outcome: 'unsigned',
      message: `expected manifest.signed to be true, got ${describeValue(signed)}`,
    };
  }
  if (signature === undefined || signature === null) {
    return {
      outcome: 'unsigned',
      message: `expected manifest.signature, got ${describeValue(signature)}`,
    };
  }
  if (!isObject(signature)) {
    return invalid(
      undefined,
      `expected manifest.signature to be an object, got ${describeValue(signature)}`,
    );
  }

  const alg = own(signature, 'alg');
  const algString = typeof alg === 'string' ? alg : undefined;
  if (alg !== 'Ed25519' && alg !== 'HMAC-SHA256') {
    return invalid(
      algString,
      `expected signature.alg "Ed25519" or "HMAC-SHA256", got ${describeValue(alg)}`,
    );
  }
  const value = own(signature, 'value');
  const length = alg === 'Ed25519' ? 128 : 64;
  if (!isLowerHex(value, length)) {
    return invalid(
      alg,
      `expected signature.value to be ${length} lowercase hex characters, got ${describeValue(value)}`,
    );
  }
  const signatureHex = value;

  const replay = own(manifest, 'replay');
  const contentDigest = own(manifest, 'content_digest');
  const cassetteDigest = isObject(replay) ? own(replay, 'cassette_digest') : undefined;
  if (typeof contentDigest !== 'string' || typeof cassetteDigest !== 'string') {
    return invalid(
      alg,
      `expected manifest.content_digest and manifest.replay.cassette_digest to be strings, got ${describeValue(contentDigest)} and ${describeValue(cassetteDigest)}`,
    );
  }
  // The payload, built here rather than by signaturePayload() because the digests are already
  // known to be strings (docs/spec.md §5.6: UTF-8 of content ":" cassette).
  const payload = `${contentDigest}:${cassetteDigest}`;

  if (alg === 'HMAC-SHA256') {
    if (policy.hmacKeys.length === 0) {
      return {
        outcome: 'no-key',
        alg,
        message: 'expected an HMAC key to check the HMAC-SHA256 signature, got none',
      };
    }
    // Every key is tried, even after a match, so the time taken does not tell which one it was.
    let matched = false;
    for (const key of policy.hmacKeys) {
      if (verifyHmacSha256(key, payload, signatureHex)) matched = true;
    }
    if (matched) return { outcome: 'valid', alg };
    return invalid(
      alg,
      policy.hmacKeys.length === 1
        ? 'expected the HMAC-SHA256 tag to match the payload under the given key, got a different tag'
        : `expected the HMAC-SHA256 tag to match the payload under one of the ${policy.hmacKeys.length} given keys, got a different tag`,
    );
  }

  const pubkey = own(signature, 'pubkey');
  if (pubkey === undefined) return checkWithoutInlineKey(signatureHex, payload, policy);

  let raw: Uint8Array;
  try {
    raw = publicKeyFromPem(pubkey as string);
  } catch (err) {
    return invalid(alg, `signature.pubkey: ${err instanceof Error ? err.message : String(err)}`);
  }
  const id = keyId(raw);
  if (!isTorsionFreePublicKey(raw)) {
    return invalid(
      alg,
      `expected signature.pubkey to be a torsion-free Ed25519 public key, got key ${id}, which has a small-order component`,
      id,
    );
  }
  if (!verifyEd25519(signatureHex, payload, raw)) {
    return invalid(
      alg,
      `expected an Ed25519 signature of the payload by key ${id}, got one that does not verify`,
      id,
    );
  }
  if (policy.revoked.some((k) => k.id === id)) {
    return {
      outcome: 'revoked',
      alg,
      keyId: id,
      message: `expected a key that is not revoked, got revoked key ${id}`,
    };
  }
  if (policy.pinned.some((k) => k.id === id)) return { outcome: 'valid', alg, keyId: id };
  return {
    outcome: 'valid-unpinned',
    alg,
    keyId: id,
    message:
      policy.pinned.length === 0
        ? `expected a pinned key, got key ${id} and no keys pinned`
        : `expected one of the ${policy.pinned.length} pinned keys, got key ${id}`,
  };
}

/**
 * An Ed25519 signature with no inline pubkey: sound under a revoked key → revoked; under a
 * pinned key → valid; otherwise there is no key to check it with → no-key.
 */
function checkWithoutInlineKey(
  signatureHex: string,
  payload: string,
  policy: Policy,
): SignatureCheck {
  for (const key of policy.revoked) {
    if (verifyEd25519(signatureHex, payload, key.raw)) {
      return {
        outcome: 'revoked',
        alg: 'Ed25519',
        keyId: key.id,
        message: `expected a key that is not revoked, got revoked key ${key.id}`,
      };
    }
  }
  for (const key of policy.pinned) {
    if (verifyEd25519(signatureHex, payload, key.raw))
      return { outcome: 'valid', alg: 'Ed25519', keyId: key.id };
  }
  return {
    outcome: 'no-key',
    alg: 'Ed25519',
    message:
      policy.pinned.length === 0
        ? 'expected an inline signature.pubkey or a pinned key, got neither'
        : `expected a pinned key that verifies the signature (no inline pubkey), got none of ${policy.pinned.length}`,
  };
}

/**
 * Validates a trust policy without checking anything against it, so a caller can reject a bad
 * configuration (a pinned key that is not an Ed25519 public key) before it reads any record.
 *
 * @throws {SignError} `TRUST_POLICY_INVALID` as {@link checkSignature} does.
 */
export function assertTrustPolicy(trust: unknown): asserts trust is TrustPolicy | undefined {
  readPolicy(trust);
}

function readPolicy(trust: unknown): Policy {
  if (trust === undefined) return { pinned: [], revoked: [], hmacKeys: [] };
  if (!isObject(trust))
    throw policyError(`expected a trust policy object, got ${describeValue(trust)}`);
  return {
    pinned: readKeys(trust['pinned'], 'pinned'),
    revoked: readKeys(trust['revoked'], 'revoked'),
    hmacKeys: readHmacKeys(trust['hmacKey']),
  };
}

function isHmacKey(value: unknown): value is HmacKey {
  return typeof value === 'string' || value instanceof Uint8Array;
}

function readHmacKeys(value: unknown): HmacKey[] {
  if (value === undefined) return [];
  if (isHmacKey(value)) return [value];
  if (!Array.isArray(value)) {
    throw policyError(
      `expected trust.hmacKey to be a string, a Uint8Array or an array of them, got ${describeValue(value)}`,
    );
  }
  return value.map((key: unknown, i) => {
    if (!isHmacKey(key)) {
      throw policyError(
        `expected trust.hmacKey[${i}] to be a string or Uint8Array, got ${describeValue(key)}`,
      );
    }
    return key;
  });
}

function readKeys(list: unknown, name: string): TrustedKey[] {
  if (list === undefined) return [];
  if (!Array.isArray(list))
    throw policyError(`expected trust.${name} to be an array of keys, got ${describeValue(list)}`);
  return list.map((input: unknown, i) => {
    let raw: Uint8Array;
    try {
      raw = normalizeKey(input as KeyInput);
    } catch (err) {
      throw policyError(
        `trust.${name}[${i}]: ${err instanceof Error ? err.message : String(err)}`,
        err,
      );
    }
    // A key with a small-order component stands for the same signer as the key without it,
    // under a different encoding: pinning or revoking one must not miss the other.
    if (!isTorsionFreePublicKey(raw)) {
      throw policyError(
        `trust.${name}[${i}]: expected a torsion-free Ed25519 public key, got one with a small-order component`,
      );
    }
    return { raw, id: keyId(raw) };
  });
}

function invalid(alg: string | undefined, message: string, id?: string): SignatureCheck {
  return {
    outcome: 'invalid',
    ...(alg === undefined ? {} : { alg }),
    ...(id === undefined ? {} : { keyId: id }),
    message,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own member's value, ignoring anything inherited. */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function policyError(message: string, cause?: unknown): SignError {
  return new SignError(
    'TRUST_POLICY_INVALID',
    message,
    cause === undefined ? undefined : { cause },
  );
}

/** Whether `value` is exactly `length` lowercase hex characters (docs/spec.md §5.6). */
function isLowerHex(value: unknown, length: number): value is string {
  return typeof value === 'string' && value.length === length && /^[0-9a-f]*$/.test(value);
}

/** A short description of a value for "got Y" in messages. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === 'string')
    return value.length > 40
      ? `a string of ${value.length} characters`
      : `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${String(value)}`;
  return typeof value;
}
