// SHA256SUMS, in the format `sha256sum -c` reads: one "<64 hex>  <path>" line per file (two
// spaces: text mode is not used), paths relative to the bundle's top-level directory, sorted.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

/** The SHA256SUMS text of files (path → bytes). */
export function formatSums(files: ReadonlyMap<string, Uint8Array>): string {
  return [...files.keys()]
    .sort(comparePaths)
    .map((path) => `${sha256Hex(files.get(path) as Uint8Array)}  ${path}\n`)
    .join('');
}

/** path → digest from a SHA256SUMS text, or the reason it is malformed. */
export function parseSums(
  text: string,
): { ok: true; sums: Map<string, string> } | { ok: false; message: string } {
  const sums = new Map<string, string>();
  if (text !== '' && !text.endsWith('\n'))
    return { ok: false, message: 'expected every line to end with a newline' };
  for (const [i, line] of text.split('\n').slice(0, -1).entries()) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m === null) return { ok: false, message: `line ${i + 1}: expected "<sha256>  <path>"` };
    if (sums.has(m[2] as string))
      return { ok: false, message: `line ${i + 1}: ${m[2]} is listed twice` };
    sums.set(m[2] as string, m[1] as string);
  }
  return { ok: true, sums };
}

/** Orders strings by their UTF-16 code units: the order bundle entries are written in. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
