// The signature of a record: the signer checked once, then the payload
// `content_digest + ":" + cassette_digest` signed (docs/spec.md §5.6).
import { publicKeyFromPrivateKey, signEd25519 } from '../ed25519.js';
import { expectBytes } from '../arguments.js';
import { isBytes } from '@noble/hashes/utils.js';
import { SignError, describeValue } from '../errors.js';
import { hmacSha256Hex } from '../hmac.js';
import { keyId } from '../key-id.js';
import { privateKeyFromPem, publicKeyToPem } from '../keys.js';
import { signaturePayload } from '../payload.js';
import { isPlainObject, jsonCopy, recordInvalid } from './json-data.js';
import type { RecordSignature, SealedRecord, Signer } from './types.js';

/** A signer whose shape was checked, an Ed25519 PEM key resolved to its seed. */
export type CheckedSigner =
  | { readonly alg: 'Ed25519'; readonly privateKey: Uint8Array }
  | { readonly alg: 'HMAC-SHA256'; readonly key: Uint8Array | string };

/** Validates a signer and resolves an Ed25519 PEM key to its seed. */
export function checkSigner(signer: unknown): CheckedSigner {
  if (!isPlainObject(signer)) {
    throw signerInvalid(`expected a signer object { alg, … }, got ${describeValue(signer)}`);
  }
  const alg = signer['alg'];
  if (alg === 'Ed25519') {
    const key = signer['privateKey'];
    if (typeof key === 'string') return { alg, privateKey: privateKeyFromPem(key) };
    if (isBytes(key)) return { alg, privateKey: expectBytes(key, 32, 'signer.privateKey') };
    throw signerInvalid(
      `expected signer.privateKey to be 32 bytes or PKCS#8 PEM text, got ${describeValue(key)}`,
    );
  }
  if (alg === 'HMAC-SHA256') {
    const key = signer['key'];
    if ((typeof key !== 'string' && !isBytes(key)) || key.length === 0) {
      // An empty key is refused: it is almost always an unset secret, and it proves nothing.
      throw signerInvalid(
        `expected signer.key to be a non-empty string or Uint8Array, got ${describeValue(key)}`,
      );
    }
    return { alg, key };
  }
  throw signerInvalid(
    `expected signer.alg to be "Ed25519" or "HMAC-SHA256", got ${describeValue(alg)}`,
  );
}

/** The `manifest.signature` over `payload` by a checked signer. */
export function signatureFor(payload: string, signer: CheckedSigner): RecordSignature {
  if (signer.alg === 'HMAC-SHA256') {
    return { alg: 'HMAC-SHA256', value: hmacSha256Hex(signer.key, payload) };
  }
  const publicKey = publicKeyFromPrivateKey(signer.privateKey);
  return {
    alg: 'Ed25519',
    value: signEd25519(payload, signer.privateKey),
    pubkey: publicKeyToPem(publicKey),
    key_id: keyId(publicKey),
  };
}

/**
 * (Re-)signs a sealed record: replaces `manifest.signature` by a signature over the two digests
 * the manifest states (`content_digest` and `replay.cassette_digest`) and sets `signed: true`.
 * Nothing else is recomputed — use {@link sealRecord} to recompute hashes and digests. Other
 * manifest members are kept, in place. Returns a deep copy; the input is not modified.
 *
 * @throws {SignError} `RECORD_INVALID` when the record has no manifest object with string
 *   digests; `SIGNER_INVALID` or a key error for a bad signer.
 * @throws {CanonicalError} for a record holding a value with no JSON form.
 */
export function signRecord(record: SealedRecord, signer: Signer): SealedRecord {
  const checked = checkSigner(signer);
  const copy = jsonCopy(record, '');
  if (!isPlainObject(copy) || !isPlainObject(copy['manifest'])) {
    throw recordInvalid(
      `expected a sealed record with a manifest object, got ${describeValue(copy)}`,
    );
  }
  const manifest = copy['manifest'];
  const replay = manifest['replay'];
  const content = manifest['content_digest'];
  const cassette = isPlainObject(replay) ? replay['cassette_digest'] : undefined;
  if (typeof content !== 'string' || typeof cassette !== 'string') {
    throw recordInvalid(
      `expected manifest.content_digest and manifest.replay.cassette_digest to be strings, got ${describeValue(content)} and ${describeValue(cassette)}`,
    );
  }
  manifest['signed'] = true;
  manifest['signature'] = signatureFor(signaturePayload(content, cassette), checked);
  return copy as unknown as SealedRecord;
}

function signerInvalid(message: string): SignError {
  return new SignError('SIGNER_INVALID', message);
}
