// The artifacts a record names: every event may carry `artifacts: [{name, sha256, bytes}]`
// (the files the step produced). Those lists are inside the hashed, signed events, so a
// verified record commits to each artifact's size and SHA-256.
import { issue, type BundleIssue } from './issues.js';
import { unsafePathReason } from './paths.js';

/** One declared artifact. */
export interface ArtifactRef {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why `ref` is not a well-formed artifact reference, or null. */
export function artifactRefProblem(ref: unknown): string | null {
  if (!isObject(ref)) return 'expected an object {name, sha256, bytes}';
  const { name, sha256, bytes } = ref;
  if (typeof name !== 'string') return 'expected name to be a string';
  const unsafe = unsafePathReason(name);
  if (unsafe !== null || name.endsWith('/'))
    return `expected name to be a relative file path, got ${unsafe ?? 'a directory'} in ${JSON.stringify(name)}`;
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256))
    return 'expected sha256 to be 64 lowercase hex digits';
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0)
    return 'expected bytes to be an integer >= 0';
  return null;
}

/**
 * Every artifact the record's events name, once each, in name order, with the problems
 * found (a malformed entry, or one name with two different digests or sizes).
 */
export function declaredArtifacts(record: unknown): {
  artifacts: ArtifactRef[];
  issues: BundleIssue[];
} {
  const events =
    isObject(record) && Array.isArray(record['events']) ? (record['events'] as unknown[]) : [];
  const byName = new Map<string, ArtifactRef>();
  const issues: BundleIssue[] = [];
  events.forEach((event, index) => {
    if (!isObject(event) || event['artifacts'] === undefined) return;
    const list = event['artifacts'];
    if (!Array.isArray(list)) {
      issues.push(
        issue('BUNDLE_ARTIFACT_LIST', `event ${index}: expected artifacts to be an array`),
      );
      return;
    }
    list.forEach((ref: unknown, j) => {
      const problem = artifactRefProblem(ref);
      if (problem !== null) {
        issues.push(issue('BUNDLE_ARTIFACT_LIST', `event ${index}, artifact ${j}: ${problem}`));
        return;
      }
      const r = ref as ArtifactRef;
      const seen = byName.get(r.name);
      if (seen === undefined)
        byName.set(r.name, { name: r.name, sha256: r.sha256, bytes: r.bytes });
      else if (seen.sha256 !== r.sha256 || seen.bytes !== r.bytes) {
        issues.push(
          issue(
            'BUNDLE_ARTIFACT_LIST',
            `event ${index}: expected artifact ${JSON.stringify(r.name)} to keep sha256 ${seen.sha256}, got ${r.sha256}`,
            r.name,
          ),
        );
      }
    });
  });
  const artifacts = [...byName.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return { artifacts, issues };
}
