// Declaring a file the run produced. The event's `artifacts: [{name, sha256, bytes}]` enters
// the event chain, so the signed record commits to the file's size and SHA-256;
// `runback bundle --artifacts DIR` then packs DIR/name and `runback verify` checks it
// (docs/evidence.md). The bytes themselves are not stored in the record.
import { createHash } from 'node:crypto';
import { argError } from '../../core/errors.js';
import { emitInstantEvent } from './instant-event.js';

/** What an artifact event names. */
export interface ArtifactRef {
  readonly name: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** A relative `/`-separated path: no empty, "." or ".." segment, no backslash, no control character. */
function isArtifactName(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name))
    return false;
  for (const c of name) {
    const code = c.charCodeAt(0);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
  }
  return name.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/**
 * Records that the run produced the file `name` with these bytes (a string is its UTF-8), as
 * an `artifact` event in the current run (outside a run nothing is recorded). Returns the
 * reference the event carries.
 */
export function artifact(name: string, bytes: Uint8Array | string): ArtifactRef {
  if (typeof name !== 'string' || !isArtifactName(name)) {
    throw argError('name', 'a relative file path (no "..", no leading "/")', name);
  }
  if (typeof bytes !== 'string' && !(bytes instanceof Uint8Array))
    throw argError('bytes', 'a Uint8Array or a string', bytes);
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const ref: ArtifactRef = {
    name,
    sha256: createHash('sha256').update(data).digest('hex'),
    bytes: data.length,
  };
  emitInstantEvent('artifact', { artifacts: [ref] });
  return ref;
}
