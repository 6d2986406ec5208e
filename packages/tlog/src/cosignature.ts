// C2SP tlog-cosignature v1 (c2sp.org/tlog-cosignature) with Ed25519: a witness's note
// signature on a checkpoint, stating that, at the given time, this is the largest tree head it
// has seen for the log and that it is consistent with every earlier one. The key ID uses the
// algorithm byte 0x04; the signature is an 8-byte big-endian POSIX timestamp followed by the
// Ed25519 signature of "cosignature/v1\ntime <timestamp>\n" + the checkpoint body.
//
// The timestamp is an argument: the package reads no clock.
import { signEd25519, verifyEd25519 } from '@runback/sign';
import { describeValue, TlogError } from './errors.js';
import { bytesEqual } from './hash.js';
import { bytesToHex, hexToBytes, noteKeyId, signatureLine, type ParsedNote } from './note.js';

/** The signature-type byte of a cosignature/v1 key ID. */
export const COSIGNATURE_ALG = 0x04;

/** One verified cosignature. */
export interface Cosignature {
  readonly name: string;
  /** POSIX seconds at which the witness signed. */
  readonly timestamp: number;
}

function cosignedMessage(checkpointText: string, timestamp: number): string {
  return `cosignature/v1\ntime ${timestamp}\n${checkpointText}`;
}

function expectTimestamp(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new TlogError(
      'ARG_INVALID_TYPE',
      `timestamp: expected POSIX seconds as a safe integer >= 0, got ${describeValue(value)}`,
    );
  }
  return value;
}

/**
 * The signature line a witness (`name`, Ed25519 key pair) adds to a checkpoint whose body is
 * `checkpointText`, at POSIX time `timestamp`.
 */
export function cosignatureLine(
  checkpointText: string,
  name: string,
  timestamp: number,
  privateKey: Uint8Array,
  publicKey: Uint8Array,
): string {
  const t = expectTimestamp(timestamp);
  const sig = hexToBytes(signEd25519(cosignedMessage(checkpointText, t), privateKey));
  const body = new Uint8Array(8 + sig.length);
  new DataView(body.buffer).setBigUint64(0, BigInt(t), false);
  body.set(sig, 8);
  return signatureLine(name, noteKeyId(name, COSIGNATURE_ALG, publicKey), body);
}

/**
 * Finds and checks the cosignature of a witness key on a checkpoint note. The witness is
 * known by its public key alone: each line's name is tried, since the key ID binds the name.
 * Returns the verified cosignature, `absent` when no line carries this key, or `invalid`
 * when a line with this key's ID does not verify.
 */
export function verifyCosignature(
  note: ParsedNote,
  publicKey: Uint8Array,
): Cosignature | 'absent' | 'invalid' {
  let seen = false;
  for (const line of note.signatures) {
    if (!bytesEqual(line.keyId, noteKeyId(line.name, COSIGNATURE_ALG, publicKey))) continue;
    seen = true;
    if (line.signature.length !== 72) continue;
    const timestamp = new DataView(
      line.signature.buffer,
      line.signature.byteOffset,
      8,
    ).getBigUint64(0, false);
    if (timestamp > BigInt(Number.MAX_SAFE_INTEGER)) continue;
    const t = Number(timestamp);
    if (
      verifyEd25519(bytesToHex(line.signature.slice(8)), cosignedMessage(note.text, t), publicKey)
    ) {
      return { name: line.name, timestamp: t };
    }
  }
  return seen ? 'invalid' : 'absent';
}
