// Reading a bundle's files: gunzip (DecompressionStream, so it runs in browsers too), then
// the tar reader's structural checks, under size limits.
import { gunzip } from './gunzip.js';
import type { BundleIssue } from './issues.js';
import { readTar, type BundleFiles, type ReadLimits } from './tar-read.js';

/** Limits on what is read; defaults suit evidence bundles, not arbitrary archives. */
export interface ReadOptions {
  readonly limits?: Partial<ReadLimits>;
}

export const DEFAULT_LIMITS: ReadLimits = { maxEntries: 10_000, maxBytes: 1024 * 1024 * 1024 };

/** The files of a gzip tar bundle, or every structural problem found. */
export async function readBundle(
  bytes: Uint8Array,
  options: ReadOptions = {},
): Promise<{ ok: true; bundle: BundleFiles } | { ok: false; issues: BundleIssue[] }> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  // The tar stream carries 512-byte headers and padding on top of the files' bytes.
  const tarLimit = limits.maxBytes + (limits.maxEntries + 2) * 1024;
  const unzipped = await gunzip(bytes, tarLimit);
  if (!unzipped.ok) return { ok: false, issues: [unzipped.issue] };
  return readTar(unzipped.bytes, limits);
}

/** Whether bytes look like a gzip bundle (not a JSON record). */
export function looksLikeBundle(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}
