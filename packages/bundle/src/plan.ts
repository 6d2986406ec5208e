// What goes into a bundle, decided before anything is written: the record must verify
// (through @runback/verify), every artifact the record names must be given with the size and
// SHA-256 it names, and nothing else may be given. The result is the sorted file list and the
// timestamp every entry carries (the run's end time).
import { readJsonStrict, verifyJson, type VerifyOptions, type VerifyResult } from '@runback/verify';
import { declaredArtifacts } from './artifacts.js';
import { issue, type BundleIssue } from './issues.js';
import {
  ARTIFACTS_DIR,
  PROOF_FILE,
  README_FILE,
  RECORD_FILE,
  SUMS_FILE,
  isDirectoryName,
} from './paths.js';
import { bundleReadme } from './readme.js';
import { formatSums, sha256Hex } from './sums.js';
import type { TarFile } from './tar-build.js';

/** What to bundle. */
export interface BundleInput {
  /** The record's bytes, stored as given. */
  readonly record: Uint8Array;
  /** Artifact name → bytes; exactly the artifacts the record names. */
  readonly artifacts: ReadonlyMap<string, Uint8Array>;
  readonly reportMd?: string;
  readonly reportHtml?: string;
  /** An inclusion proof document (JSON text) for the record. */
  readonly proof?: string;
  /** How the record is verified before it is bundled (pinned keys). */
  readonly verify?: VerifyOptions;
}

/** A bundle ready to write. */
export interface BundlePlan {
  readonly runId: string;
  readonly files: readonly TarFile[];
  readonly mtime: Date;
  readonly verification: VerifyResult;
}

const encoder = new TextEncoder();

export function planBundle(
  input: BundleInput,
):
  | { ok: true; plan: BundlePlan }
  | { ok: false; issues: BundleIssue[]; verification?: VerifyResult } {
  const verification = verifyJson(input.record, input.verify ?? {});
  if (verification.verdict === 'invalid') {
    const first = verification.errors[0];
    return {
      ok: false,
      verification,
      issues: [
        issue(
          'BUNDLE_RECORD_INVALID',
          `expected a record that verifies, got ${first === undefined ? 'an invalid one' : `${first.code}: ${first.message}`}`,
          RECORD_FILE,
        ),
      ],
    };
  }
  const parsed = readJsonStrict(input.record);
  const record = parsed.ok ? (parsed.value as Record<string, unknown>) : {};
  const runId = String((record['manifest'] as Record<string, unknown>)['run_id']);
  if (!isDirectoryName(runId)) {
    return {
      ok: false,
      verification,
      issues: [
        issue(
          'BUNDLE_NAME_MISMATCH',
          `expected a run id usable as a directory name (letters, digits, . _ -), got ${JSON.stringify(runId)}`,
        ),
      ],
    };
  }
  const { artifacts, issues } = declaredArtifacts(record);
  const files: TarFile[] = [{ path: RECORD_FILE, bytes: input.record }];
  for (const ref of artifacts) {
    const bytes = input.artifacts.get(ref.name);
    if (bytes === undefined) {
      issues.push(
        issue(
          'BUNDLE_ARTIFACT_MISSING',
          `expected the artifact ${JSON.stringify(ref.name)} that the record names, got no such file`,
          ref.name,
        ),
      );
      continue;
    }
    const digest = sha256Hex(bytes);
    if (bytes.length !== ref.bytes || digest !== ref.sha256) {
      issues.push(
        issue(
          'BUNDLE_ARTIFACT_MISMATCH',
          `expected ${ref.name} to be ${ref.bytes} bytes with sha256 ${ref.sha256}, got ${bytes.length} bytes with sha256 ${digest}`,
          ref.name,
        ),
      );
      continue;
    }
    files.push({ path: ARTIFACTS_DIR + ref.name, bytes });
  }
  for (const name of input.artifacts.keys()) {
    if (!artifacts.some((a) => a.name === name)) {
      issues.push(
        issue(
          'BUNDLE_UNEXPECTED_FILE',
          `expected only artifacts the record names, got ${JSON.stringify(name)} as well`,
          name,
        ),
      );
    }
  }
  if (issues.length > 0) return { ok: false, issues, verification };
  if (input.reportMd !== undefined)
    files.push({ path: 'report.md', bytes: encoder.encode(input.reportMd) });
  if (input.reportHtml !== undefined)
    files.push({ path: 'report.html', bytes: encoder.encode(input.reportHtml) });
  if (input.proof !== undefined)
    files.push({ path: PROOF_FILE, bytes: encoder.encode(input.proof) });
  files.push({
    path: README_FILE,
    bytes: encoder.encode(
      bundleReadme(
        runId,
        files.map((f) => f.path),
      ),
    ),
  });
  files.push({
    path: SUMS_FILE,
    bytes: encoder.encode(formatSums(new Map(files.map((f) => [f.path, f.bytes])))),
  });
  return {
    ok: true,
    plan: {
      runId,
      files: files.map((f) => ({ path: `${runId}/${f.path}`, bytes: f.bytes })),
      mtime: endTime(record),
      verification,
    },
  };
}

/** The run's end time (run.ended_at, else the manifest's generated_at), to the second. */
function endTime(record: Record<string, unknown>): Date {
  const run = record['run'] as Record<string, unknown> | undefined;
  const manifest = record['manifest'] as Record<string, unknown> | undefined;
  for (const value of [run?.['ended_at'], manifest?.['generated_at']]) {
    if (typeof value === 'string') {
      const ms = Date.parse(value);
      if (Number.isFinite(ms) && ms >= 0) return new Date(Math.floor(ms / 1000) * 1000);
    }
  }
  return new Date(0);
}
