// Release manifests: one JSON document, schema "runback.release/v1", pinning every
// distributed representation of every released run — the record's head, each report file and
// the bundle:
//
//   {"schema":"runback.release/v1","runs":[{"run_id", "content_digest", "cassette_digest",
//     "event_count", "files": {"report.md": {"sha256"}, "report.html": {"sha256"}},
//     "bundle": {"sha256"} | null}, …]}
//
// Written canonically (docs/spec.md §2), runs sorted by run id. A representation the manifest
// does not list is not covered by it.
import { canonical } from '@runback/canonical';
import { readJsonStrict } from '@runback/verify';
import type { AnchorLine } from './anchors.js';
import { sha256Hex } from './sums.js';

export const RELEASE_SCHEMA = 'runback.release/v1';

export interface ReleaseRun {
  readonly run_id: string;
  readonly content_digest: string;
  readonly cassette_digest: string;
  readonly event_count: number;
  readonly files: Readonly<Record<string, { readonly sha256: string }>>;
  readonly bundle: { readonly sha256: string } | null;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The canonical manifest text of runs and its SHA-256. */
export function formatManifest(runs: readonly ReleaseRun[]): { text: string; sha256: string } {
  const sorted = [...runs].sort((a, b) => (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0));
  const text = canonical({ runs: sorted, schema: RELEASE_SCHEMA }) + '\n';
  return { text, sha256: sha256Hex(new TextEncoder().encode(text)) };
}

/** Reads a manifest, refusing one without the required members. */
export function parseManifest(
  bytes: Uint8Array,
): { ok: true; runs: Map<string, ReleaseRun> } | { ok: false; message: string } {
  const parsed = readJsonStrict(bytes);
  if (!parsed.ok) return { ok: false, message: parsed.error.message };
  const v = parsed.value;
  if (!isObj(v) || v['schema'] !== RELEASE_SCHEMA || !Array.isArray(v['runs'])) {
    return { ok: false, message: `expected {"schema": "${RELEASE_SCHEMA}", "runs": [...]}` };
  }
  const runs = new Map<string, ReleaseRun>();
  for (const [i, row] of (v['runs'] as unknown[]).entries()) {
    if (!isObj(row) || typeof row['run_id'] !== 'string')
      return { ok: false, message: `runs[${i}]: expected an object with run_id` };
    for (const k of ['content_digest', 'cassette_digest'] as const) {
      if (typeof row[k] !== 'string' || !SHA256_HEX.test(row[k]))
        return { ok: false, message: `runs[${i}]: expected ${k} as 64 lowercase hex digits` };
    }
    if (typeof row['event_count'] !== 'number')
      return { ok: false, message: `runs[${i}]: expected event_count` };
    const files = row['files'];
    if (
      !isObj(files) ||
      Object.values(files).some(
        (f) => !isObj(f) || typeof f['sha256'] !== 'string' || !SHA256_HEX.test(f['sha256']),
      )
    ) {
      return { ok: false, message: `runs[${i}]: expected files as {name: {sha256}}` };
    }
    const bundle = row['bundle'];
    if (
      bundle !== null &&
      (!isObj(bundle) || typeof bundle['sha256'] !== 'string' || !SHA256_HEX.test(bundle['sha256']))
    ) {
      return { ok: false, message: `runs[${i}]: expected bundle as {sha256} or null` };
    }
    if (runs.has(row['run_id']))
      return { ok: false, message: `runs[${i}]: ${row['run_id']} is listed twice` };
    runs.set(row['run_id'], row as unknown as ReleaseRun);
  }
  return { ok: true, runs };
}

/**
 * Problems of a record (and the report files and bundle at hand) against its manifest row.
 * `files` maps a report name to its bytes' SHA-256; every file the row pins must be given.
 */
export function checkRelease(
  row: ReleaseRun | undefined,
  head: AnchorLine,
  files: ReadonlyMap<string, string>,
  bundleSha256: string | undefined,
): string[] {
  if (row === undefined)
    return [`expected ${head.run_id} in the release manifest, got no row for it`];
  const out: string[] = [];
  for (const k of ['content_digest', 'cassette_digest', 'event_count'] as const) {
    if (row[k] !== head[k])
      out.push(`expected ${k} ${String(row[k])} as released, got ${String(head[k])}`);
  }
  for (const [name, pin] of Object.entries(row.files)) {
    const got = files.get(name);
    if (got === undefined) out.push(`expected ${name} (pinned by the manifest) to check, got none`);
    else if (got !== pin.sha256)
      out.push(`expected ${name} to have sha256 ${pin.sha256} as released, got ${got}`);
  }
  if (bundleSha256 !== undefined) {
    if (row.bundle === null)
      out.push('expected a released bundle, got a manifest row with "bundle": null');
    else if (row.bundle.sha256 !== bundleSha256)
      out.push(
        `expected the bundle's sha256 ${row.bundle.sha256} as released, got ${bundleSha256}`,
      );
  }
  return out;
}
