// One verification of everything a user hands over: a record or a bundle, and optionally a
// log proof, an anchors file, an expected head and a release manifest. Each check is named and
// reports its own problems; the record itself is verified by @runback/verify (directly, or
// inside verifyBundle), the proof by @runback/tlog. The verdict is invalid when any check
// fails, else the record's own verdict.
import { recordHeadOf, verifyInclusionProof, type LogProofResult } from '@runback/tlog';
import {
  readJsonStrict,
  verifyJson,
  type Verdict,
  type VerifyOptions,
  type VerifyResult,
} from '@runback/verify';
import { anchorLineOf, checkAnchor, parseAnchors } from './anchors.js';
import { checkRelease, parseManifest } from './manifest.js';
import { looksLikeBundle } from './read-bundle.js';
import { sha256Hex } from './sums.js';
import { verifyBundle, type BundleVerifyResult } from './verify-bundle.js';
import type { ReadOptions } from './read-bundle.js';

export interface EvidenceInput extends ReadOptions {
  /** A record (JSON) or a bundle (gzip tar). */
  readonly bytes: Uint8Array;
  readonly verify?: VerifyOptions;
  /** An inclusion proof document for a plain record (a bundle carries its own). */
  readonly proof?: Uint8Array;
  readonly logKey?: Uint8Array;
  readonly witnessKeys?: readonly Uint8Array[];
  /** heads.jsonl, and the digest published for it (heads.sha256), when known. */
  readonly anchors?: Uint8Array;
  readonly anchorsSha256?: string;
  /** The content digest the record must have. */
  readonly expectHead?: string;
  /** A release manifest (runback.release/v1). */
  readonly manifest?: Uint8Array;
  /** Report files at hand for a plain record (name → bytes); a bundle's own are used for a bundle. */
  readonly reports?: ReadonlyMap<string, Uint8Array>;
}

export type EvidenceCheck = 'bundle' | 'proof' | 'anchors' | 'expect_head' | 'manifest';

export interface EvidenceError {
  readonly check: EvidenceCheck;
  readonly code: string;
  readonly message: string;
}

export interface EvidenceResult {
  readonly verdict: Verdict;
  readonly kind: 'record' | 'bundle';
  readonly record: VerifyResult | null;
  readonly bundle: BundleVerifyResult | null;
  readonly proof: LogProofResult | null;
  /** Which optional checks ran, and whether each passed. */
  readonly checks: Partial<Record<EvidenceCheck, boolean>>;
  readonly errors: readonly EvidenceError[];
  readonly notes: readonly string[];
}

const REPORT_NAMES = ['report.md', 'report.html'] as const;

export async function verifyEvidence(input: EvidenceInput): Promise<EvidenceResult> {
  const errors: EvidenceError[] = [];
  const notes: string[] = [];
  const checks: Partial<Record<EvidenceCheck, boolean>> = {};
  const fail = (check: EvidenceCheck, code: string, message: string) =>
    errors.push({ check, code, message });

  let kind: EvidenceResult['kind'] = 'record';
  let record: VerifyResult | null;
  let bundle: BundleVerifyResult | null = null;
  let proof: LogProofResult | null = null;
  let recordBytes: Uint8Array | undefined;
  const reports = new Map<string, string>();

  if (looksLikeBundle(input.bytes)) {
    kind = 'bundle';
    bundle = await verifyBundle(input.bytes, {
      ...(input.limits === undefined ? {} : { limits: input.limits }),
      ...(input.verify === undefined ? {} : { verify: input.verify }),
      ...(input.logKey === undefined ? {} : { logKey: input.logKey }),
      ...(input.witnessKeys === undefined ? {} : { witnessKeys: input.witnessKeys }),
    });
    record = bundle.record;
    proof = bundle.proof;
    checks.bundle = bundle.errors.length === 0;
    for (const e of bundle.errors)
      fail('bundle', e.code, e.path === undefined ? e.message : `${e.path}: ${e.message}`);
    notes.push(...bundle.notes);
    for (const [name, digest] of bundle.reportDigests) reports.set(name, digest);
    if (input.proof !== undefined)
      notes.push('the bundle carries its own proof; the separate proof was not used');
  } else {
    recordBytes = input.bytes;
    record = verifyJson(input.bytes, input.verify ?? {});
    for (const name of REPORT_NAMES) {
      const bytes = input.reports?.get(name);
      if (bytes !== undefined) reports.set(name, sha256Hex(bytes));
    }
    if (input.proof !== undefined) {
      proof = checkProof(input, recordBytes);
      checks.proof = proof.ok;
      for (const e of proof.errors) fail('proof', e.code, e.message);
    }
  }
  if (kind === 'bundle' && proof !== null) checks.proof = proof.ok;

  let head = bundle?.head ?? null;
  if (recordBytes !== undefined) {
    const parsed = readJsonStrict(recordBytes);
    head = anchorLineOf(parsed.ok ? parsed.value : null);
  }

  if (input.expectHead !== undefined) {
    const ok = head !== null && head.content_digest === input.expectHead;
    checks.expect_head = ok;
    if (!ok)
      fail(
        'expect_head',
        'EXPECT_HEAD_MISMATCH',
        `expected the content digest ${input.expectHead}, got ${head?.content_digest ?? 'no readable record head'}`,
      );
  }
  if (input.anchors !== undefined) {
    const problems = anchorProblems(input, head, reports.get('report.md'));
    checks.anchors = problems.length === 0;
    for (const p of problems) fail('anchors', 'ANCHOR_MISMATCH', p);
  }
  if (input.manifest !== undefined) {
    const parsedManifest = parseManifest(input.manifest);
    let problems: string[];
    if (!parsedManifest.ok) problems = [`the manifest is malformed: ${parsedManifest.message}`];
    else if (head === null)
      problems = ['expected a record head to check against the manifest, got none'];
    else
      problems = checkRelease(
        parsedManifest.runs.get(head.run_id),
        head,
        reports,
        kind === 'bundle' ? sha256Hex(input.bytes) : undefined,
      );
    checks.manifest = problems.length === 0;
    for (const p of problems) fail('manifest', 'MANIFEST_MISMATCH', p);
  }

  const recordVerdict: Verdict = record?.verdict ?? 'invalid';
  const verdict: Verdict =
    errors.length > 0 || recordVerdict === 'invalid' ? 'invalid' : recordVerdict;
  return { verdict, kind, record, bundle, proof, checks, errors, notes };
}

function checkProof(input: EvidenceInput, recordBytes: Uint8Array): LogProofResult {
  const parsedProof = readJsonStrict(input.proof as Uint8Array);
  const parsedRecord = readJsonStrict(recordBytes);
  if (!parsedProof.ok)
    return {
      ok: false,
      errors: [
        {
          code: 'PROOF_DOCUMENT_MALFORMED',
          message: `the proof is not JSON: ${parsedProof.error.message}`,
        },
      ],
      witnesses: [],
    };
  if (input.logKey === undefined)
    return {
      ok: false,
      errors: [
        {
          code: 'CHECKPOINT_NOT_SIGNED_BY_LOG',
          message: "expected the log's public key to check the proof against, got none",
        },
      ],
      witnesses: [],
    };
  let expectHead;
  try {
    expectHead = recordHeadOf(parsedRecord.ok ? parsedRecord.value : null);
  } catch (err) {
    return {
      ok: false,
      errors: [
        {
          code: 'PROOF_HEAD_MISMATCH',
          message: `expected a record head to check the proof against: ${(err as Error).message}`,
        },
      ],
      witnesses: [],
    };
  }
  return verifyInclusionProof(parsedProof.value, {
    logKey: input.logKey,
    witnessKeys: input.witnessKeys ?? [],
    expectHead,
  });
}

function anchorProblems(
  input: EvidenceInput,
  head: ReturnType<typeof anchorLineOf>,
  reportSha256: string | undefined,
): string[] {
  const parsed = parseAnchors(input.anchors as Uint8Array);
  if (!parsed.ok) return [`the anchors file is malformed: ${parsed.message}`];
  const out: string[] = [];
  if (input.anchorsSha256 !== undefined && input.anchorsSha256 !== parsed.sha256) {
    out.push(
      `expected the anchors file to have the published sha256 ${input.anchorsSha256}, got ${parsed.sha256}`,
    );
  }
  if (head === null)
    return [...out, 'expected a record head to check against the anchors, got none'];
  return [...out, ...checkAnchor(parsed.lines.get(head.run_id), head, reportSha256)];
}
