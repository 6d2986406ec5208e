// Reads a bundle's tar archive with tar-stream and refuses anything a safe extractor must not
// meet: links, devices and fifos, unsafe paths, more than one top-level directory and
// duplicate paths. Returns the regular files under the top-level directory.
import tar from 'tar-stream';
import { concatBytes } from './bytes.js';
import { issue, type BundleIssue } from './issues.js';
import { unsafePathReason } from './paths.js';

/** Limits on what is read. */
export interface ReadLimits {
  /** Most entries (files and directories) accepted. */
  readonly maxEntries: number;
  /** Most bytes in all files together. */
  readonly maxBytes: number;
}

/** The files of a bundle: the top-level directory's name, and path (below it) → bytes. */
export interface BundleFiles {
  readonly root: string;
  readonly files: ReadonlyMap<string, Uint8Array>;
}

export async function readTar(
  bytes: Uint8Array,
  limits: ReadLimits,
): Promise<{ ok: true; bundle: BundleFiles } | { ok: false; issues: BundleIssue[] }> {
  const issues: BundleIssue[] = [];
  const files = new Map<string, Uint8Array>();
  const roots = new Set<string>();
  const seen = new Set<string>();
  let count = 0;
  let total = 0;
  const extract = tar.extract();
  try {
    const reading = (async () => {
      for await (const entry of extract) {
        const { header } = entry;
        const chunks: Uint8Array[] = [];
        for await (const chunk of entry) {
          total += (chunk as Uint8Array).length;
          if (total > limits.maxBytes)
            throw new LimitError(`expected at most ${limits.maxBytes} bytes of files, got more`);
          chunks.push(chunk);
        }
        if (++count > limits.maxEntries)
          throw new LimitError(`expected at most ${limits.maxEntries} entries, got more`);
        const name = header.name;
        const type = header.type ?? 'file';
        if (type !== 'file' && type !== 'directory') {
          issues.push(
            issue(
              'BUNDLE_ENTRY_TYPE',
              `expected only files and directories, got a ${type} entry ${JSON.stringify(name)}`,
              name,
            ),
          );
          continue;
        }
        const unsafe = unsafePathReason(name);
        if (unsafe !== null) {
          issues.push(
            issue(
              'BUNDLE_UNSAFE_PATH',
              `expected a relative path inside the bundle, got ${unsafe} in ${JSON.stringify(name)}`,
              name,
            ),
          );
          continue;
        }
        const normal = type === 'directory' ? name.replace(/\/?$/, '/') : name;
        if (seen.has(normal)) {
          issues.push(
            issue(
              'BUNDLE_DUPLICATE_ENTRY',
              `expected each path once, got ${JSON.stringify(name)} twice`,
              name,
            ),
          );
          continue;
        }
        seen.add(normal);
        const slash = normal.indexOf('/');
        if (slash === -1) {
          issues.push(
            issue(
              'BUNDLE_TOP_LEVEL',
              `expected every entry inside one top-level directory, got the file ${JSON.stringify(name)} at the top`,
              name,
            ),
          );
          continue;
        }
        roots.add(normal.slice(0, slash));
        if (type === 'file') files.set(normal.slice(slash + 1), concatBytes(chunks));
      }
    })();
    extract.end(bytes);
    await reading;
  } catch (err) {
    if (err instanceof LimitError)
      return { ok: false, issues: [issue('BUNDLE_TOO_LARGE', err.message)] };
    return {
      ok: false,
      issues: [
        issue(
          'BUNDLE_NOT_TAR',
          `expected a well-formed tar archive, got: ${err instanceof Error ? err.message : String(err)}`,
        ),
      ],
    };
  }
  if (roots.size !== 1) {
    issues.push(
      issue(
        'BUNDLE_TOP_LEVEL',
        roots.size === 0
          ? 'expected one top-level directory, got no entries in one'
          : `expected one top-level directory, got ${roots.size}: ${[...roots].sort().join(', ')}`,
      ),
    );
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, bundle: { root: [...roots][0] as string, files } };
}

class LimitError extends Error {}
