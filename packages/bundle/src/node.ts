// @runback/bundle/node: writing a bundle as gzip with node:zlib. The gzip header carries no
// timestamp (mtime 0) and a fixed OS byte, and the level is fixed, so the same plan always
// compresses to the same bytes with a given zlib.
import { gzipSync, constants } from 'node:zlib';
import { planBundle, type BundleInput, type BundlePlan } from './plan.js';
import { buildTar } from './tar-build.js';
import type { BundleIssue } from './issues.js';
import type { VerifyResult } from '@runback/verify';

/** The gzip header's OS byte: 3 (Unix), whatever the platform that wrote it (RFC 1952 §2.3.1). */
const OS_UNIX = 3;

/** Gzips tar bytes reproducibly. */
export function gzipReproducible(tar: Uint8Array): Uint8Array {
  const out = new Uint8Array(
    gzipSync(tar, { level: 9, memLevel: 8, strategy: constants.Z_DEFAULT_STRATEGY }),
  );
  // Bytes 4-7 are MTIME (zlib writes 0 when given none); byte 9 is OS, set by zlib at build time.
  out.fill(0, 4, 8);
  out[9] = OS_UNIX;
  return out;
}

/** Plans and writes a bundle: its gzip bytes, or the problems that stopped it. */
export async function writeBundle(
  input: BundleInput,
): Promise<
  | { ok: true; bytes: Uint8Array; plan: BundlePlan }
  | { ok: false; issues: BundleIssue[]; verification?: VerifyResult }
> {
  const planned = planBundle(input);
  if (!planned.ok) return planned;
  const tar = await buildTar(planned.plan.files, planned.plan.mtime);
  return { ok: true, bytes: gzipReproducible(tar), plan: planned.plan };
}

export { buildTar, type TarFile } from './tar-build.js';
