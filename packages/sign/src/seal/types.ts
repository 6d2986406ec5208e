// The shapes a writer produces: signer, signature, manifest, sealed event and record
// (docs/spec.md §5, §5.6).

/**
 * Who signs a record. Ed25519 (preferred: proves who signed) takes a 32-byte private key
 * (seed) or PKCS#8 PEM text; HMAC-SHA256 (proves custody of a shared secret only) takes a
 * non-empty key, a string being its UTF-8 bytes.
 */
export type Signer =
  | { readonly alg: 'Ed25519'; readonly privateKey: Uint8Array | string }
  | { readonly alg: 'HMAC-SHA256'; readonly key: Uint8Array | string };

/** An Ed25519 `manifest.signature`: hex signature, the signer's SPKI PEM inline, its key id. */
export interface Ed25519Signature {
  readonly alg: 'Ed25519';
  /** 128 lowercase hex characters: R‖S (RFC 8032 §5.1.6). */
  readonly value: string;
  /** The signer's public key as SPKI PEM, so the record verifies offline. */
  readonly pubkey: string;
  /** `keyId(pubkey)`: lowercase hex SHA-256 of the SPKI DER. */
  readonly key_id: string;
}

/** An HMAC-SHA256 `manifest.signature`: the 64-character lowercase hex tag. */
export interface HmacSignature {
  readonly alg: 'HMAC-SHA256';
  readonly value: string;
}

/** A `manifest.signature` as this package writes it. */
export type RecordSignature = Ed25519Signature | HmacSignature;

/** The manifest of a sealed record, members in the order they are written. */
export interface SealedManifest {
  readonly run_id: string;
  readonly generated_at: string;
  readonly event_count: number;
  readonly algorithm: 'sha256-chain';
  readonly content_digest: string;
  readonly replay: {
    readonly cassette_digest: string;
    readonly entry_count: number;
    readonly algorithm: 'oracle-chain/sha256';
  };
  readonly signed: boolean;
  readonly signature?: RecordSignature;
}

/** A sealed event: the input event (deep-copied) with its chain hash in `_hash`. */
export type SealedEvent = Record<string, unknown> & { readonly _hash: string };

/** A sealed record: `$schema`, `manifest`, `run`, `events`, in that order. */
export interface SealedRecord {
  readonly $schema: 'runback.audit/v2';
  readonly manifest: SealedManifest;
  readonly run: Record<string, unknown>;
  readonly events: readonly SealedEvent[];
}

/** What {@link sealRecord} seals: the run summary and the events in recording order. */
export interface SealInput {
  /** The run summary; its `run_id` (a non-empty string) becomes `manifest.run_id`. */
  readonly run: object;
  /** The events, in the order the chain commits to. */
  readonly events: readonly object[];
  /** Ignored: writers always emit `runback.audit/v2`. Accepted so a record can be re-sealed. */
  readonly $schema?: string;
}

/** Options of {@link sealRecord}. There is no clock here: the caller supplies the time. */
export interface SealOptions {
  /** `manifest.generated_at`, ISO 8601 with milliseconds and `Z` by convention. */
  readonly generatedAt: string;
  /** The signer; without one the record is sealed unsigned (`signed: false`). */
  readonly signer?: Signer | undefined;
}
