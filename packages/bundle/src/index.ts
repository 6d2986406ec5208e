// @runback/bundle: reproducible evidence bundles — one gzip tar holding a record, the artifacts
// its events name, reports, SHA256SUMS and an optional transparency-log proof — and their
// offline verification. This entry runs in Node and in browsers (DecompressionStream); writing
// gzip lives in '@runback/bundle/node'.
export {
  verifyBundle,
  type ArtifactCheck,
  type BundleVerifyOptions,
  type BundleVerifyResult,
} from './verify-bundle.js';
export { readBundle, looksLikeBundle, DEFAULT_LIMITS, type ReadOptions } from './read-bundle.js';
export type { BundleFiles, ReadLimits } from './tar-read.js';
export { planBundle, type BundleInput, type BundlePlan } from './plan.js';
export { declaredArtifacts, type ArtifactRef } from './artifacts.js';
export { BundleError, type BundleIssue, type BundleIssueCode } from './issues.js';
export { ARTIFACTS_DIR, PROOF_FILE, RECORD_FILE, SUMS_FILE } from './paths.js';
export {
  anchorLineOf,
  checkAnchor,
  formatAnchors,
  parseAnchors,
  type AnchorLine,
} from './anchors.js';
export {
  checkRelease,
  formatManifest,
  parseManifest,
  RELEASE_SCHEMA,
  type ReleaseRun,
} from './manifest.js';
export { sha256Hex } from './sums.js';
export {
  verifyEvidence,
  type EvidenceCheck,
  type EvidenceError,
  type EvidenceInput,
  type EvidenceResult,
} from './verify-evidence.js';
