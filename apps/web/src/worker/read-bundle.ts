// A dropped evidence bundle (the gzip tar `runback bundle` writes): @runback/bundle's
// verifyEvidence — the same call `runback verify BUNDLE` makes, which gunzips with
// DecompressionStream, reads the tar with the CLI's reader (refusing links, devices,
// absolute paths, `..` and a second top-level directory) and verifies record.json with
// @runback/verify — and the listing of what the bundle holds.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { RECORD_FILE, SUMS_FILE, readBundle, verifyEvidence } from '@runback/bundle';
import type { VerifyOptions, VerifyResult } from '@runback/verify';
import type { BundleFile, BundleView } from './protocol.js';

export { looksLikeBundle } from '@runback/bundle';

/** The bundle's verification, its listing, and the bytes of its record (when it has one). */
export async function checkBundle(
  bytes: Uint8Array,
  options: VerifyOptions,
): Promise<{ view: BundleView; record: VerifyResult | null; recordBytes: Uint8Array | null }> {
  const evidence = await verifyEvidence({ bytes, verify: options });
  const issues = evidence.bundle?.errors ?? [];
  const sumsProblem = new Set(
    issues.filter((i) => i.code === 'BUNDLE_SUMS_MISMATCH').map((i) => i.path),
  );
  const sumsMissing = issues.some((i) => i.code === 'BUNDLE_MISSING_FILE' && i.path === SUMS_FILE);
  // The listing reads the archive again only when its structure was accepted.
  const read = evidence.bundle?.root == null ? null : await readBundle(bytes);
  const files: BundleFile[] = [];
  let recordBytes: Uint8Array | null = null;
  if (read?.ok === true) {
    for (const [path, body] of [...read.bundle.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      files.push({
        path,
        bytes: body.length,
        sha256: bytesToHex(sha256(body)),
        sums:
          path === SUMS_FILE
            ? 'self'
            : sumsMissing
              ? 'unchecked'
              : sumsProblem.has(path)
                ? 'mismatch'
                : 'ok',
      });
    }
    recordBytes = read.bundle.files.get(RECORD_FILE) ?? null;
  }
  const view: BundleView = {
    verdict: evidence.verdict,
    root: evidence.bundle?.root ?? null,
    accepted: evidence.checks.bundle === true,
    errors: evidence.errors.map((e) => ({ check: e.check, code: e.code, message: e.message })),
    notes: [...evidence.notes],
    artifacts: (evidence.bundle?.artifacts ?? []).map((a) => ({ ...a })),
    files,
    sums: sumsMissing
      ? 'missing'
      : issues.some((i) => i.code === 'BUNDLE_SUMS_MISMATCH')
        ? 'mismatch'
        : read?.ok === true
          ? 'ok'
          : 'unchecked',
  };
  return { view, record: evidence.record, recordBytes };
}
