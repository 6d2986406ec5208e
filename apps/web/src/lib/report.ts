// The downloadable verification report: what was checked, against which keys, by what.
import type { VerifyResult } from '@runback/verify';
import type { BundleView, FileFacts } from '../worker/protocol.js';
import type { TrustedKey } from './trust-store.js';

export interface VerificationReport {
  readonly report: 'runback.verification-report/v1';
  readonly verified_at: string;
  readonly verifier: { readonly name: string; readonly version: string; readonly page: string };
  readonly file: { readonly name: string; readonly bytes: number; readonly sha256: string };
  readonly keys: readonly { key_id: string; role: string; origin: string; pem: string }[];
  readonly hmac_key_given: boolean;
  /** The record's result (null for a bundle whose record could not be read). */
  readonly result: VerifyResult | null;
  /** For an evidence bundle: its verdict, checks, artifacts and files. */
  readonly bundle?: BundleView;
}

export function buildReport(
  file: FileFacts,
  result: VerifyResult | null,
  bundle: BundleView | null,
  keys: readonly TrustedKey[],
  hmacKeyGiven: boolean,
  now: Date,
): VerificationReport {
  return {
    report: 'runback.verification-report/v1',
    verified_at: now.toISOString(),
    verifier: {
      name: '@runback/verify',
      version: __VERIFY_VERSION__,
      page: `@runback/web ${__WEB_VERSION__}`,
    },
    file: { name: file.name, bytes: file.bytes, sha256: file.sha256 },
    keys: keys.map((k) => ({ key_id: k.keyId, role: k.role, origin: k.origin, pem: k.pem })),
    hmac_key_given: hmacKeyGiven,
    result,
    ...(bundle === null ? {} : { bundle }),
  };
}
