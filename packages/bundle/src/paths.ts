// Paths inside a bundle. Every entry lives under one top-level directory named after the
// run; names are checked segment by segment so that no entry can escape the directory it is
// extracted into (no absolute path, no "..", no backslash, no control character).

/** The files of a bundle's top-level directory, besides artifacts/. */
export const RECORD_FILE = 'record.json';
export const SUMS_FILE = 'SHA256SUMS';
export const README_FILE = 'README.txt';
export const PROOF_FILE = 'proof.json';
export const REPORT_FILES = ['report.md', 'report.html'] as const;
export const ARTIFACTS_DIR = 'artifacts/';

const KNOWN_FILES = new Set<string>([
  RECORD_FILE,
  SUMS_FILE,
  README_FILE,
  PROOF_FILE,
  ...REPORT_FILES,
]);

/** Whether a top-level file name belongs to the layout. */
export function isKnownFile(name: string): boolean {
  return KNOWN_FILES.has(name);
}

/** Why `path` is unsafe, or null. `/`-separated, relative, plain segments only. */
export function unsafePathReason(path: string): string | null {
  if (path === '') return 'an empty path';
  if (path.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'a drive-letter path';
  if (path.includes('\\')) return 'a backslash';
  // Control characters (C0, DEL, C1) could rewrite a terminal or hide a name.
  for (const c of path) {
    const code = c.charCodeAt(0);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'a control character';
  }
  const segments = path.split('/');
  for (const [i, segment] of segments.entries()) {
    if (segment === '..') return 'a ".." segment';
    if (segment === '.') return 'a "." segment';
    // A trailing slash (a directory entry) is the one empty segment allowed.
    if (segment === '' && i !== segments.length - 1) return 'an empty segment';
  }
  return null;
}

/** A run id usable as the top-level directory name. */
export function isDirectoryName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(name);
}
