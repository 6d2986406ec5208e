// Verifying a bundle, offline: the archive's structure (read-bundle.ts), the record through
// @runback/verify (never re-implemented here), every artifact the signed record names against
// the bundled bytes, SHA256SUMS against every file, and — with a log key — the inclusion proof
// of this very record through @runback/tlog.
import { recordHeadOf, verifyInclusionProof, type LogProofResult } from '@runback/tlog';
import {
  readJsonStrict,
  verifyJson,
  type Verdict,
  type VerifyOptions,
  type VerifyResult,
} from '@runback/verify';
import { anchorLineOf, type AnchorLine } from './anchors.js';
import { declaredArtifacts } from './artifacts.js';
import { issue, type BundleIssue } from './issues.js';
import { readBundle, type ReadOptions } from './read-bundle.js';
import {
  ARTIFACTS_DIR,
  PROOF_FILE,
  RECORD_FILE,
  REPORT_FILES,
  SUMS_FILE,
  isKnownFile,
} from './paths.js';
import { parseSums, sha256Hex } from './sums.js';

/** How to verify a bundle. */
export interface BundleVerifyOptions extends ReadOptions {
  /** Passed to @runback/verify for the record (pinned keys, revoked keys, HMAC key). */
  readonly verify?: VerifyOptions;
  /** The log's Ed25519 public key: the bundle must then carry a proof that verifies. */
  readonly logKey?: Uint8Array;
  /** Witness keys whose cosignatures the proof's checkpoint must carry. */
  readonly witnessKeys?: readonly Uint8Array[];
}

/** One artifact's check. */
export interface ArtifactCheck {
  readonly name: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly ok: boolean;
}

/** The outcome; `verdict` is invalid on any bundle error, else the record's verdict. */
export interface BundleVerifyResult {
  readonly verdict: Verdict;
  /** The top-level directory, once the archive could be read. */
  readonly root: string | null;
  readonly record: VerifyResult | null;
  readonly artifacts: readonly ArtifactCheck[];
  readonly proof: LogProofResult | null;
  readonly errors: readonly BundleIssue[];
  /** Facts worth saying that are not failures (e.g. a proof that was not checked). */
  readonly notes: readonly string[];
  readonly files: readonly string[];
  /** SHA-256 of each bundled report file (report.md, report.html), for anchors and manifests. */
  readonly reportDigests: ReadonlyMap<string, string>;
  /** The bundled record's head (run id, digests, event count), when its manifest has one. */
  readonly head: AnchorLine | null;
}

export async function verifyBundle(
  bytes: Uint8Array,
  options: BundleVerifyOptions = {},
): Promise<BundleVerifyResult> {
  const read = await readBundle(bytes, options);
  if (!read.ok) {
    return {
      verdict: 'invalid',
      root: null,
      record: null,
      artifacts: [],
      proof: null,
      errors: read.issues,
      notes: [],
      files: [],
      reportDigests: new Map(),
      head: null,
    };
  }
  const { root, files } = read.bundle;
  const errors: BundleIssue[] = [];
  const notes: string[] = [];
  const names = [...files.keys()].sort();

  const recordBytes = files.get(RECORD_FILE);
  let record: VerifyResult | null = null;
  let recordValue: unknown = null;
  if (recordBytes === undefined) {
    errors.push(
      issue(
        'BUNDLE_MISSING_FILE',
        `expected ${root}/${RECORD_FILE}, got no such file`,
        RECORD_FILE,
      ),
    );
  } else {
    record = verifyJson(recordBytes, options.verify ?? {});
    if (record.verdict === 'invalid') {
      const first = record.errors[0];
      errors.push(
        issue(
          'BUNDLE_RECORD_INVALID',
          `expected the record to verify, got ${first === undefined ? 'invalid' : `${first.code}: ${first.message}`}`,
          RECORD_FILE,
        ),
      );
    }
    const parsed = readJsonStrict(recordBytes);
    recordValue = parsed.ok ? parsed.value : null;
    const runId = manifestRunId(recordValue);
    if (runId !== null && runId !== root) {
      errors.push(
        issue(
          'BUNDLE_NAME_MISMATCH',
          `expected the top-level directory to be the run id ${runId}, got ${root}`,
        ),
      );
    }
  }

  const declared = declaredArtifacts(recordValue);
  errors.push(...declared.issues);
  const artifacts: ArtifactCheck[] = [];
  for (const ref of declared.artifacts) {
    const got = files.get(ARTIFACTS_DIR + ref.name);
    if (got === undefined) {
      errors.push(
        issue(
          'BUNDLE_ARTIFACT_MISSING',
          `expected ${ARTIFACTS_DIR}${ref.name}, named by the record, got no such file`,
          ARTIFACTS_DIR + ref.name,
        ),
      );
      artifacts.push({ ...ref, ok: false });
      continue;
    }
    const digest = sha256Hex(got);
    const ok = got.length === ref.bytes && digest === ref.sha256;
    if (!ok) {
      errors.push(
        issue(
          'BUNDLE_ARTIFACT_MISMATCH',
          `expected ${ARTIFACTS_DIR}${ref.name} to be ${ref.bytes} bytes with sha256 ${ref.sha256}, got ${got.length} bytes with sha256 ${digest}`,
          ARTIFACTS_DIR + ref.name,
        ),
      );
    }
    artifacts.push({ ...ref, ok });
  }
  const declaredPaths = new Set(declared.artifacts.map((a) => ARTIFACTS_DIR + a.name));
  for (const name of names) {
    const known = name.startsWith(ARTIFACTS_DIR) ? declaredPaths.has(name) : isKnownFile(name);
    if (!known)
      errors.push(
        issue(
          'BUNDLE_UNEXPECTED_FILE',
          `expected only the layout's files and the artifacts the record names, got ${name}`,
          name,
        ),
      );
  }

  errors.push(...checkSums(files));
  const proof = checkProof(files.get(PROOF_FILE), recordValue, options, errors, notes);

  const recordVerdict = record?.verdict ?? 'invalid';
  const verdict: Verdict = errors.length > 0 ? 'invalid' : recordVerdict;
  const reportDigests = new Map<string, string>();
  for (const name of REPORT_FILES) {
    const bytes = files.get(name);
    if (bytes !== undefined) reportDigests.set(name, sha256Hex(bytes));
  }
  return {
    verdict,
    root,
    record,
    artifacts,
    proof,
    errors,
    notes,
    files: names,
    reportDigests,
    head: anchorLineOf(recordValue),
  };
}

function checkSums(files: ReadonlyMap<string, Uint8Array>): BundleIssue[] {
  const sumsBytes = files.get(SUMS_FILE);
  if (sumsBytes === undefined)
    return [issue('BUNDLE_MISSING_FILE', `expected ${SUMS_FILE}, got no such file`, SUMS_FILE)];
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(sumsBytes);
  } catch {
    return [issue('BUNDLE_SUMS_MISMATCH', `expected ${SUMS_FILE} to be UTF-8 text`, SUMS_FILE)];
  }
  const parsed = parseSums(text);
  if (!parsed.ok)
    return [issue('BUNDLE_SUMS_MISMATCH', `${SUMS_FILE}: ${parsed.message}`, SUMS_FILE)];
  const out: BundleIssue[] = [];
  for (const [path, bytes] of files) {
    if (path === SUMS_FILE) continue;
    const listed = parsed.sums.get(path);
    const digest = sha256Hex(bytes);
    if (listed === undefined)
      out.push(
        issue(
          'BUNDLE_SUMS_MISMATCH',
          `expected ${SUMS_FILE} to list ${path}, got no line for it`,
          path,
        ),
      );
    else if (listed !== digest)
      out.push(
        issue(
          'BUNDLE_SUMS_MISMATCH',
          `expected ${path} to have the sha256 ${SUMS_FILE} lists (${listed}), got ${digest}`,
          path,
        ),
      );
  }
  for (const path of parsed.sums.keys()) {
    if (!files.has(path))
      out.push(
        issue(
          'BUNDLE_SUMS_MISMATCH',
          `expected ${path}, listed in ${SUMS_FILE}, got no such file`,
          path,
        ),
      );
  }
  return out;
}

function checkProof(
  proofBytes: Uint8Array | undefined,
  record: unknown,
  options: BundleVerifyOptions,
  errors: BundleIssue[],
  notes: string[],
): LogProofResult | null {
  if (proofBytes === undefined) {
    if (options.logKey !== undefined)
      errors.push(
        issue(
          'BUNDLE_PROOF_MISSING',
          `expected ${PROOF_FILE} (a log key was given), got none`,
          PROOF_FILE,
        ),
      );
    return null;
  }
  if (options.logKey === undefined) {
    notes.push(
      `${PROOF_FILE} is present but was not checked: give the log's public key to check it`,
    );
    return null;
  }
  const parsed = readJsonStrict(proofBytes);
  if (!parsed.ok) {
    errors.push(
      issue(
        'BUNDLE_PROOF_INVALID',
        `expected ${PROOF_FILE} to be JSON, got: ${parsed.error.message}`,
        PROOF_FILE,
      ),
    );
    return null;
  }
  let expectHead;
  try {
    expectHead = recordHeadOf(record);
  } catch {
    errors.push(
      issue(
        'BUNDLE_PROOF_INVALID',
        'expected a record head (run id and digests) to check the proof against, got a record without one',
        PROOF_FILE,
      ),
    );
    return null;
  }
  const result = verifyInclusionProof(parsed.value, {
    logKey: options.logKey,
    witnessKeys: options.witnessKeys ?? [],
    expectHead,
  });
  for (const e of result.errors)
    errors.push(
      issue('BUNDLE_PROOF_INVALID', `${PROOF_FILE}: ${e.code}: ${e.message}`, PROOF_FILE),
    );
  return result;
}

function manifestRunId(record: unknown): string | null {
  const m =
    typeof record === 'object' && record !== null
      ? (record as Record<string, unknown>)['manifest']
      : null;
  const id = typeof m === 'object' && m !== null ? (m as Record<string, unknown>)['run_id'] : null;
  return typeof id === 'string' ? id : null;
}
