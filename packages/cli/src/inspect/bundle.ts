// `runback inspect` on a bundle: the record inside it is what is summarized; the bundle's
// file list comes along. Reading (and refusing unsafe archives) is @runback/bundle's.
import { looksLikeBundle, readBundle } from '@runback/bundle';
import { CliError } from '../errors.js';

/** The record bytes to summarize, and the bundle's files when `bytes` is a bundle. */
export async function recordBytesOf(
  bytes: Uint8Array,
  name: string,
): Promise<{ bytes: Uint8Array; bundle: { root: string; files: string[] } | null }> {
  if (!looksLikeBundle(bytes)) return { bytes, bundle: null };
  const read = await readBundle(bytes);
  if (!read.ok) {
    throw new CliError(
      'INSPECT_NOT_RECORD',
      `${name} is not a readable bundle: ${read.issues.map((i) => `${i.code}: ${i.message}`).join('; ')}`,
    );
  }
  const record = read.bundle.files.get('record.json');
  if (record === undefined)
    throw new CliError('INSPECT_NOT_RECORD', `${name} is a bundle without record.json`);
  return {
    bytes: record,
    bundle: { root: read.bundle.root, files: [...read.bundle.files.keys()].sort() },
  };
}
