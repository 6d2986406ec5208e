// The manifest: what a record states about its events (docs/spec.md §5), built in one place so
// every writer emits the same members in the same order and signs the same payload.
import { signaturePayload } from '../payload.js';
import { checkSigner, signatureFor } from './sign.js';
import type { SealedManifest, Signer } from './types.js';

/** What a manifest states: the run id, when it was sealed, and the digests of its events. */
export interface ManifestFacts {
  readonly runId: string;
  /** `manifest.generated_at`: the caller supplies the time (the trust core reads no clock). */
  readonly generatedAt: string;
  readonly eventCount: number;
  readonly contentDigest: string;
  readonly cassetteDigest: string;
  readonly entryCount: number;
}

/**
 * The manifest for digests already computed (by sealRecord, or incrementally by a recorder),
 * signed when a signer is given.
 *
 * @throws {SignError} `SIGNER_INVALID` or a key error for a bad signer.
 */
export function buildManifest(facts: ManifestFacts, signer?: Signer): SealedManifest {
  const checked = signer === undefined ? undefined : checkSigner(signer);
  return {
    run_id: facts.runId,
    generated_at: facts.generatedAt,
    event_count: facts.eventCount,
    algorithm: 'sha256-chain',
    content_digest: facts.contentDigest,
    replay: {
      cassette_digest: facts.cassetteDigest,
      entry_count: facts.entryCount,
      algorithm: 'oracle-chain/sha256',
    },
    signed: checked !== undefined,
    ...(checked === undefined
      ? {}
      : {
          signature: signatureFor(
            signaturePayload(facts.contentDigest, facts.cassetteDigest),
            checked,
          ),
        }),
  };
}
