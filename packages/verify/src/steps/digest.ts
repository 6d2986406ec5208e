// Step 4, digest: the recomputed terminal hash equals manifest.content_digest (docs/spec.md §3).
import { describe, StepErrors, type RecordParts, type StepResult } from './context.js';

/** The chain algorithm this verifier implements; a manifest naming another is refused. */
export const CHAIN_ALGORITHM = 'sha256-chain';

/** Compares manifest.content_digest with the chain step's recomputed digest. */
export function checkDigest(parts: RecordParts, contentDigest: string | null): StepResult {
  const out = new StepErrors('digest');
  const { manifest } = parts;
  if (manifest === null) {
    out.add('DIGEST_NO_MANIFEST', 'expected a manifest with content_digest, got none');
    return out.result();
  }
  const algorithm = manifest['algorithm'];
  if (algorithm !== undefined && algorithm !== CHAIN_ALGORITHM) {
    out.add(
      'DIGEST_UNSUPPORTED_ALGORITHM',
      `expected manifest.algorithm "${CHAIN_ALGORITHM}", got ${describe(algorithm)}`,
    );
  }
  const claimed = manifest['content_digest'];
  if (contentDigest === null) {
    out.add(
      'DIGEST_UNCOMPUTABLE',
      'expected a computable event chain to compare with manifest.content_digest, got a broken one',
    );
  } else if (claimed !== contentDigest) {
    out.add(
      'DIGEST_MISMATCH',
      `expected manifest.content_digest to be ${contentDigest}, got ${describe(claimed)}`,
    );
  }
  return out.result();
}
