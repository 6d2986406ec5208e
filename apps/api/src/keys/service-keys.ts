// The service's keys, as data: who signs what it seals (Ed25519 preferred, then HMAC-SHA256,
// then nothing) and which keys its verify endpoint trusts (docs/spec.md §5.6: the current key
// and rotated-out ones pinned, revoked keys refused). Pure: node/load-keys.ts reads them.
import {
  keyId,
  privateKeyFromPem,
  publicKeyFromPem,
  publicKeyFromPrivateKey,
  publicKeyToPem,
  type Signer,
} from '@runback/sign';
import type { VerifyOptions } from '@runback/verify';

/** A published Ed25519 public key. */
export interface PublishedKey {
  readonly key_id: string;
  readonly alg: 'Ed25519';
  readonly pem: string;
}

export interface ServiceKeys {
  /** What sealed runs are signed with; undefined seals them unsigned. */
  readonly signer: Signer | undefined;
  /** The trust policy of `POST /api/audit/verify` (and of the service's own checks). */
  readonly trust: VerifyOptions;
  readonly current: PublishedKey | null;
  readonly previous: readonly PublishedKey[];
  /** Further keys pinned by configuration (RUNBACK_PINNED_PUBKEYS). */
  readonly pinned: readonly PublishedKey[];
  readonly revoked: readonly PublishedKey[];
  /**
   * The current Ed25519 private key (32-byte seed) the transparency log signs its checkpoints
   * with, or null when the service has no Ed25519 key (and so keeps no log).
   */
  readonly logSigningKey: Uint8Array | null;
}

/** Key material as configuration gives it: PEM texts and HMAC secrets. */
export interface KeyMaterial {
  readonly ed25519PrivateKeyPem?: string | undefined;
  readonly ed25519PreviousPrivateKeyPem?: string | undefined;
  readonly hmacKey?: string | undefined;
  /** The rotated-out HMAC secret: it only verifies. */
  readonly hmacPreviousKey?: string | undefined;
  readonly pinnedPublicKeyPems?: readonly string[] | undefined;
  readonly revokedPublicKeyPems?: readonly string[] | undefined;
}

function published(publicKey: Uint8Array): PublishedKey {
  return { key_id: keyId(publicKey), alg: 'Ed25519', pem: publicKeyToPem(publicKey) };
}

function publicOfPrivatePem(pem: string): Uint8Array {
  return publicKeyFromPrivateKey(privateKeyFromPem(pem));
}

/**
 * Builds the service's keys. The signer is the current Ed25519 key when there is one, else the
 * current HMAC key, else none. The previous keys only verify.
 *
 * @throws {SignError} for a PEM that is not an Ed25519 key.
 */
export function serviceKeysFrom(material: KeyMaterial): ServiceKeys {
  const current =
    material.ed25519PrivateKeyPem === undefined
      ? null
      : published(publicOfPrivatePem(material.ed25519PrivateKeyPem));
  const previous =
    material.ed25519PreviousPrivateKeyPem === undefined
      ? []
      : [published(publicOfPrivatePem(material.ed25519PreviousPrivateKeyPem))];
  const pinned = (material.pinnedPublicKeyPems ?? []).map((pem) =>
    published(publicKeyFromPem(pem)),
  );
  const revoked = (material.revokedPublicKeyPems ?? []).map((pem) =>
    published(publicKeyFromPem(pem)),
  );
  const signer: Signer | undefined =
    material.ed25519PrivateKeyPem !== undefined
      ? { alg: 'Ed25519', privateKey: material.ed25519PrivateKeyPem }
      : material.hmacKey !== undefined
        ? { alg: 'HMAC-SHA256', key: material.hmacKey }
        : undefined;
  const trustedPems = [...(current ? [current] : []), ...previous, ...pinned].map((k) => k.pem);
  const hmacKeys = [material.hmacKey, material.hmacPreviousKey].filter(
    (key): key is string => key !== undefined,
  );
  const trust: VerifyOptions = {
    pinned: trustedPems,
    revoked: revoked.map((k) => k.pem),
    ...(hmacKeys.length === 0 ? {} : { hmacKey: hmacKeys }),
  };
  const logSigningKey =
    material.ed25519PrivateKeyPem === undefined
      ? null
      : privateKeyFromPem(material.ed25519PrivateKeyPem);
  return { signer, trust, current, previous, pinned, revoked, logSigningKey };
}
