// C2SP tlog-checkpoint (c2sp.org/tlog-checkpoint@v1.0.0): the note text a log signs to commit
// to one tree head. Three lines — the origin (the log's unique name), the tree size in
// decimal without leading zeros, and the root hash in standard base64 — then optional
// extension lines, each ending in a newline.
import { base64 } from '@scure/base';
import { describeValue, expectBytes, expectSize, TlogError } from './errors.js';
import { HASH_SIZE } from './hash.js';
import { checkNoteText, isKeyName } from './note.js';

/** A tree head as a checkpoint states it. */
export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Uint8Array;
  readonly extensions: readonly string[];
}

/**
 * The checkpoint body (the signed note text) of a tree head.
 *
 * @throws {TlogError} for an origin that is not a valid key name, a bad size, a root that is
 *   not 32 bytes, or an empty or multi-line extension.
 */
export function formatCheckpoint(checkpoint: Checkpoint): string {
  const { origin, extensions } = checkpoint;
  if (!isKeyName(origin)) {
    throw new TlogError(
      'NOTE_INVALID',
      `origin: expected a non-empty name without spaces or "+", got ${describeValue(origin)}`,
    );
  }
  const size = expectSize(checkpoint.size, 'tree size');
  const root = expectBytes(checkpoint.root, 'root');
  if (root.length !== HASH_SIZE) {
    throw new TlogError(
      'ARG_INVALID_TYPE',
      `root: expected ${HASH_SIZE} bytes, got ${root.length}`,
    );
  }
  for (const ext of extensions) {
    if (typeof ext !== 'string' || ext === '' || ext.includes('\n')) {
      throw new TlogError(
        'NOTE_INVALID',
        `extension line: expected one non-empty line, got ${describeValue(ext)}`,
      );
    }
  }
  const text = [origin, String(size), base64.encode(root), ...extensions].join('\n') + '\n';
  const problem = checkNoteText(text);
  if (problem !== null) throw new TlogError('NOTE_INVALID', `checkpoint: ${problem}`);
  return text;
}

/** Reads a checkpoint body, or says why it is not one. */
export function parseCheckpoint(
  text: string,
): { ok: true; checkpoint: Checkpoint } | { ok: false; message: string } {
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : null;
  if (lines === null || lines.length < 3) {
    return {
      ok: false,
      message: 'expected at least three newline-terminated lines (origin, size, root)',
    };
  }
  const [origin, sizeText, rootText, ...extensions] = lines as [
    string,
    string,
    string,
    ...string[],
  ];
  if (!isKeyName(origin))
    return { ok: false, message: `expected an origin line, got ${JSON.stringify(origin)}` };
  if (!/^(?:0|[1-9][0-9]*)$/.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    return {
      ok: false,
      message: `expected the tree size in decimal without leading zeros, got ${JSON.stringify(sizeText)}`,
    };
  }
  let root: Uint8Array;
  try {
    root = base64.decode(rootText);
  } catch {
    return {
      ok: false,
      message: `expected the root hash in base64, got ${JSON.stringify(rootText)}`,
    };
  }
  if (root.length !== HASH_SIZE) {
    return {
      ok: false,
      message: `expected a ${HASH_SIZE}-byte root hash, got ${root.length} bytes`,
    };
  }
  if (extensions.some((e) => e === ''))
    return { ok: false, message: 'expected no empty extension line' };
  return { ok: true, checkpoint: { origin, size: Number(sizeText), root, extensions } };
}
