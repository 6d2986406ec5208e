// What can be wrong with a bundle. Bundles come from untrusted hands, so every problem is a
// reported issue with a stable code, never an exception; a caller's malformed *argument*
// throws a BundleError.

/** Stable codes of bundle problems. */
export type BundleIssueCode =
  /** Not gzip data, or the gzip stream is corrupt or cut off. */
  | 'BUNDLE_NOT_GZIP'
  /** The gzip data does not hold a well-formed tar archive. */
  | 'BUNDLE_NOT_TAR'
  /** More data than the reading limits allow (a decompression bomb, or a huge bundle). */
  | 'BUNDLE_TOO_LARGE'
  /** A link, device, fifo or other non-file entry. */
  | 'BUNDLE_ENTRY_TYPE'
  /** An absolute path, a ".." or empty segment, a backslash or a control character. */
  | 'BUNDLE_UNSAFE_PATH'
  /** Entries under more than one top-level directory, or none. */
  | 'BUNDLE_TOP_LEVEL'
  /** The same path twice: two readers could see two different files. */
  | 'BUNDLE_DUPLICATE_ENTRY'
  /** A required member (record.json, SHA256SUMS) is missing. */
  | 'BUNDLE_MISSING_FILE'
  /** A file the layout does not have (outside the known names, or an unlisted artifact). */
  | 'BUNDLE_UNEXPECTED_FILE'
  /** The top-level directory is not named after the record's run id. */
  | 'BUNDLE_NAME_MISMATCH'
  /** An event's `artifacts` list is malformed, or names one file with two digests. */
  | 'BUNDLE_ARTIFACT_LIST'
  /** An artifact the record names is not in the bundle. */
  | 'BUNDLE_ARTIFACT_MISSING'
  /** An artifact's bytes are not those the record names (size or SHA-256). */
  | 'BUNDLE_ARTIFACT_MISMATCH'
  /** SHA256SUMS is malformed, misses a file, lists one that is absent, or a digest differs. */
  | 'BUNDLE_SUMS_MISMATCH'
  /** The record does not verify (see the record's own result). */
  | 'BUNDLE_RECORD_INVALID'
  /** proof.json is not JSON, or its proof does not verify under the given log key. */
  | 'BUNDLE_PROOF_INVALID'
  /** A log key was given but the bundle carries no proof. */
  | 'BUNDLE_PROOF_MISSING';

/** One problem, with the path it concerns when there is one. */
export interface BundleIssue {
  readonly code: BundleIssueCode;
  readonly message: string;
  readonly path?: string;
}

export function issue(code: BundleIssueCode, message: string, path?: string): BundleIssue {
  return path === undefined ? { code, message } : { code, message, path };
}

/** Thrown for a malformed argument (not for a bad bundle). */
export class BundleError extends TypeError {
  readonly code: 'ARG_INVALID' | 'ARTIFACT_NAME_INVALID' | 'RUN_ID_NOT_A_PATH';
  constructor(code: BundleError['code'], message: string) {
    super(message);
    this.name = 'BundleError';
    this.code = code;
  }
}
