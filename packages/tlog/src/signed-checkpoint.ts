// Signing a tree head as a C2SP checkpoint note and reading one back under a log's key. The
// log's note key is named after its origin, so a verifier that pins the log's public key
// needs nothing else to find the log's signature line.
import { publicKeyFromPrivateKey } from '@runback/sign';
import { formatCheckpoint, parseCheckpoint, type Checkpoint } from './checkpoint.js';
import { cosignatureLine, verifyCosignature, type Cosignature } from './cosignature.js';
import { TlogError } from './errors.js';
import { parseNote, signNote, verifyNoteSignature, type ParsedNote } from './note.js';

/** Why a checkpoint note was refused. */
export type CheckpointFailureCode =
  /** Not a signed note, or its text is not a checkpoint. */
  | 'CHECKPOINT_MALFORMED'
  /** No signature line of the pinned log key. */
  | 'CHECKPOINT_NOT_SIGNED_BY_LOG'
  /** The log key's signature line does not verify. */
  | 'CHECKPOINT_SIGNATURE_INVALID'
  /** A required witness has no cosignature on the checkpoint. */
  | 'CHECKPOINT_WITNESS_MISSING'
  /** A required witness's cosignature line does not verify. */
  | 'CHECKPOINT_WITNESS_INVALID';

/** A checkpoint whose log signature (and any required cosignatures) verified. */
export interface VerifiedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly note: ParsedNote;
  readonly witnesses: readonly Cosignature[];
}

export type CheckpointRead =
  | ({ readonly ok: true } & VerifiedCheckpoint)
  | { readonly ok: false; readonly code: CheckpointFailureCode; readonly message: string };

/** Signs a tree head with the log's 32-byte Ed25519 private key; returns the note. */
export function signCheckpoint(checkpoint: Checkpoint, privateKey: Uint8Array): string {
  const text = formatCheckpoint(checkpoint);
  return signNote(text, checkpoint.origin, privateKey, publicKeyFromPrivateKey(privateKey));
}

/** Adds a witness cosignature (C2SP tlog-cosignature) at POSIX time `timestamp` to a note. */
export function cosignCheckpoint(
  note: string,
  witnessName: string,
  timestamp: number,
  privateKey: Uint8Array,
): string {
  const parsed = parseNote(note);
  if (!parsed.ok) throw new TlogError('NOTE_INVALID', `cannot cosign: ${parsed.error.message}`);
  const line = cosignatureLine(
    parsed.note.text,
    witnessName,
    timestamp,
    privateKey,
    publicKeyFromPrivateKey(privateKey),
  );
  return note + line;
}

/** Options of {@link readCheckpoint}. */
export interface CheckpointTrust {
  /** The log's 32-byte Ed25519 public key. */
  readonly logKey: Uint8Array;
  /** Witness public keys that must each have cosigned the checkpoint. */
  readonly witnessKeys?: readonly Uint8Array[];
}

/**
 * Parses a checkpoint note and checks its log signature under `trust.logKey` (the note key
 * named after the checkpoint's origin) and a cosignature from every required witness.
 */
export function readCheckpoint(note: unknown, trust: CheckpointTrust): CheckpointRead {
  const parsed = parseNote(note);
  if (!parsed.ok) return { ok: false, code: 'CHECKPOINT_MALFORMED', message: parsed.error.message };
  const body = parseCheckpoint(parsed.note.text);
  if (!body.ok) return { ok: false, code: 'CHECKPOINT_MALFORMED', message: body.message };
  const { checkpoint } = body;
  const verdict = verifyNoteSignature(parsed.note, checkpoint.origin, trust.logKey);
  if (verdict === 'absent') {
    return {
      ok: false,
      code: 'CHECKPOINT_NOT_SIGNED_BY_LOG',
      message: `expected a signature by the pinned log key for ${checkpoint.origin}, got none (wrong --log-key, or another log)`,
    };
  }
  if (verdict === 'invalid') {
    return {
      ok: false,
      code: 'CHECKPOINT_SIGNATURE_INVALID',
      message: `expected the log signature of ${checkpoint.origin} to verify over the checkpoint, got a signature that does not`,
    };
  }
  const witnesses: Cosignature[] = [];
  for (const [i, key] of (trust.witnessKeys ?? []).entries()) {
    const found = verifyCosignature(parsed.note, key);
    if (found === 'absent') {
      return {
        ok: false,
        code: 'CHECKPOINT_WITNESS_MISSING',
        message: `expected a cosignature by witness key ${i + 1}, got none`,
      };
    }
    if (found === 'invalid') {
      return {
        ok: false,
        code: 'CHECKPOINT_WITNESS_INVALID',
        message: `expected the cosignature by witness key ${i + 1} to verify over the checkpoint, got one that does not`,
      };
    }
    witnesses.push(found);
  }
  return { ok: true, checkpoint, note: parsed.note, witnesses };
}

/**
 * The tree head a checkpoint note states, WITHOUT checking any signature: for a log operator
 * reading its own checkpoint back (to know its size), never for trusting someone else's.
 */
export function checkpointOfNote(
  note: unknown,
): { ok: true; checkpoint: Checkpoint } | { ok: false; message: string } {
  const parsed = parseNote(note);
  if (!parsed.ok) return { ok: false, message: parsed.error.message };
  return parseCheckpoint(parsed.note.text);
}
