// The signed payload (docs/spec.md §5.6): the UTF-8 bytes of `content_digest + ":" + cassette_digest`, both taken from the
// manifest. Signing the two digests, rather than the whole record, binds the signature to the
// event chain and the oracle stream — everything a verifier recomputes — while the summary
// members (run_id, event_count, run) are bound indirectly by the `consistent` check.

import { SignError, describeValue } from './errors.js';

/**
 * The text a record's signature covers: `contentDigest + ":" + cassetteDigest`. Signing and
 * HMAC functions encode it as UTF-8.
 *
 * @throws {SignError} `ARG_INVALID_TYPE` when either digest is not a string.
 */
export function signaturePayload(contentDigest: string, cassetteDigest: string): string {
  if (typeof contentDigest !== 'string' || typeof cassetteDigest !== 'string') {
    throw new SignError(
      'ARG_INVALID_TYPE',
      `expected two digest strings, got ${describeValue(contentDigest)} and ${describeValue(cassetteDigest)}`,
    );
  }
  return `${contentDigest}:${cassetteDigest}`;
}
