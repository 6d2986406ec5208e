// C2SP signed-note (c2sp.org/signed-note@v1.0.0) with Ed25519 keys: a UTF-8 text ending in a
// newline, a blank line, then one line per signature, "— <key name> base64(key ID || sig)".
// The key ID of an Ed25519 note key is SHA-256(name || "\n" || 0x01 || public key)[:4]; a
// cosignature (tlog-cosignature.ts) uses the algorithm byte 0x04 instead.
//
// A verifier looks only at lines whose name and key ID match a key it was given; others are
// ignored, as the format requires, because any party may add signatures to a note.
import { sha256 } from '@noble/hashes/sha2.js';
import { signEd25519, verifyEd25519 } from '@runback/sign';
import { base64 } from '@scure/base';
import { describeValue, expectBytes, TlogError } from './errors.js';
import { bytesEqual } from './hash.js';

/** The signature-type byte of a plain Ed25519 note signature. */
export const ED25519_NOTE_ALG = 0x01;

/** One signature line of a note, decoded. */
export interface NoteSignature {
  readonly name: string;
  readonly keyId: Uint8Array;
  /** The bytes after the key ID: for Ed25519, the 64-byte signature. */
  readonly signature: Uint8Array;
}

/** A note split into its text and signature lines. */
export interface ParsedNote {
  /** The signed text, ending in "\n". */
  readonly text: string;
  readonly signatures: readonly NoteSignature[];
}

/** Why a note could not be read. */
export type NoteParseError = { readonly code: 'NOTE_MALFORMED'; readonly message: string };

const SEPARATOR = '\n\n';
const LINE_PREFIX = '\u2014 ';
const encoder = new TextEncoder();
const hex = (b: Uint8Array): string =>
  Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Whether `name` is a valid key name: non-empty, no whitespace, no "+". */
export function isKeyName(name: unknown): name is string {
  return typeof name === 'string' && name.length > 0 && !/[\s+]/u.test(name);
}

function expectKeyName(name: unknown): string {
  if (!isKeyName(name)) {
    throw new TlogError(
      'NOTE_INVALID',
      `key name: expected a non-empty string without spaces or "+", got ${describeValue(name)}`,
    );
  }
  return name;
}

/** The 4-byte key ID: SHA-256(name || "\n" || alg || public key)[:4]. */
export function noteKeyId(name: string, alg: number, publicKey: Uint8Array): Uint8Array {
  expectKeyName(name);
  const key = expectBytes(publicKey, 'public key');
  const n = encoder.encode(name);
  const input = new Uint8Array(n.length + 2 + key.length);
  input.set(n, 0);
  input[n.length] = 0x0a;
  input[n.length + 1] = alg;
  input.set(key, n.length + 2);
  return sha256(input).slice(0, 4);
}

/** The verifier key text "<name>+<hex key ID>+<base64(0x01 || public key)>". */
export function verifierKeyText(name: string, publicKey: Uint8Array): string {
  const key = expectBytes(publicKey, 'public key');
  const material = new Uint8Array(33);
  material[0] = ED25519_NOTE_ALG;
  material.set(key, 1);
  return `${expectKeyName(name)}+${hex(noteKeyId(name, ED25519_NOTE_ALG, key))}+${base64.encode(material)}`;
}

/** Checks a note text: non-empty, ends in a newline, no blank line, no control characters. */
export function checkNoteText(text: unknown): string | null {
  if (typeof text !== 'string' || text === '') return 'expected a non-empty text';
  if (!text.endsWith('\n')) return 'expected the text to end with a newline';
  if (text.includes(SEPARATOR)) return 'expected no blank line inside the text';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/u.test(text))
    return 'expected no control characters other than newline';
  if (/[\ud800-\udfff]/u.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/gu, '')))
    return 'expected well-formed Unicode';
  return null;
}

/** A signature line for `text` under an Ed25519 key, with algorithm byte `alg`. */
export function signatureLine(name: string, keyId: Uint8Array, signature: Uint8Array): string {
  const body = new Uint8Array(keyId.length + signature.length);
  body.set(keyId, 0);
  body.set(signature, keyId.length);
  return `${LINE_PREFIX}${expectKeyName(name)} ${base64.encode(body)}\n`;
}

/** Signs `text` as a note with a 32-byte Ed25519 private key; returns the whole note. */
export function signNote(
  text: string,
  name: string,
  privateKey: Uint8Array,
  publicKey: Uint8Array,
): string {
  const problem = checkNoteText(text);
  if (problem !== null) throw new TlogError('NOTE_INVALID', `note text: ${problem}`);
  const sig = hexToBytes(signEd25519(text, privateKey));
  return `${text}\n${signatureLine(name, noteKeyId(name, ED25519_NOTE_ALG, publicKey), sig)}`;
}

/** Adds signature lines to an already signed note. */
export function addSignatureLines(note: string, lines: readonly string[]): string {
  return note + lines.join('');
}

/** Splits a note into text and signatures, or says why it is not a note. */
export function parseNote(
  note: unknown,
): { ok: true; note: ParsedNote } | { ok: false; error: NoteParseError } {
  const fail = (message: string) => ({
    ok: false as const,
    error: { code: 'NOTE_MALFORMED' as const, message },
  });
  if (typeof note !== 'string')
    return fail(`expected the note as text, got ${describeValue(note)}`);
  const split = note.lastIndexOf(SEPARATOR);
  if (split === -1)
    return fail('expected a blank line between the text and its signatures, got none');
  const text = note.slice(0, split + 1);
  const problem = checkNoteText(text);
  if (problem !== null) return fail(`note text: ${problem}`);
  const block = note.slice(split + 2);
  if (!block.endsWith('\n')) return fail('expected the last signature line to end with a newline');
  const signatures: NoteSignature[] = [];
  for (const line of block.slice(0, -1).split('\n')) {
    if (!line.startsWith(LINE_PREFIX))
      return fail(
        `expected a signature line "— name signature", got ${JSON.stringify(line.slice(0, 40))}`,
      );
    const rest = line.slice(LINE_PREFIX.length);
    const space = rest.lastIndexOf(' ');
    const name = rest.slice(0, space);
    if (space === -1 || !isKeyName(name))
      return fail(`expected a key name and a signature on ${JSON.stringify(line.slice(0, 40))}`);
    let bytes: Uint8Array;
    try {
      bytes = base64.decode(rest.slice(space + 1));
    } catch {
      return fail(
        `expected the signature of ${name} in base64, got ${JSON.stringify(rest.slice(space + 1, space + 41))}`,
      );
    }
    if (bytes.length < 5)
      return fail(`expected a key ID and a signature from ${name}, got ${bytes.length} bytes`);
    signatures.push({ name, keyId: bytes.slice(0, 4), signature: bytes.slice(4) });
  }
  if (signatures.length === 0) return fail('expected at least one signature line, got none');
  return { ok: true, note: { text, signatures } };
}

/**
 * The verdict for one key over a parsed note: `verified` (a matching line verifies),
 * `absent` (no line carries this key's name and ID) or `invalid` (a matching line fails).
 */
export type KeyVerdict = 'verified' | 'absent' | 'invalid';

/** Checks the plain Ed25519 signature of key (`name`, `publicKey`) on a note. */
export function verifyNoteSignature(
  note: ParsedNote,
  name: string,
  publicKey: Uint8Array,
): KeyVerdict {
  const id = noteKeyId(name, ED25519_NOTE_ALG, publicKey);
  const lines = note.signatures.filter((s) => s.name === name && bytesEqual(s.keyId, id));
  if (lines.length === 0) return 'absent';
  return lines.every((s) => verifyEd25519(hex(s.signature), note.text, publicKey))
    ? 'verified'
    : 'invalid';
}

export function hexToBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export { hex as bytesToHex };

/**
 * Reads a verifier key text "<name>+<hex key ID>+<base64(0x01 || 32-byte key)>" and returns
 * its name and raw public key, or null when it is not a well-formed Ed25519 note key (wrong
 * algorithm byte, wrong length, or a key ID that does not match the name and key).
 */
export function parseVerifierKey(text: unknown): { name: string; publicKey: Uint8Array } | null {
  if (typeof text !== 'string') return null;
  const first = text.indexOf('+');
  const second = text.indexOf('+', first + 1);
  if (first <= 0 || second === -1) return null;
  const name = text.slice(0, first);
  const id = text.slice(first + 1, second);
  if (!isKeyName(name) || !/^[0-9a-f]{8}$/.test(id)) return null;
  let material: Uint8Array;
  try {
    material = base64.decode(text.slice(second + 1));
  } catch {
    return null;
  }
  if (material.length !== 33 || material[0] !== ED25519_NOTE_ALG) return null;
  const publicKey = material.slice(1);
  return hex(noteKeyId(name, ED25519_NOTE_ALG, publicKey)) === id ? { name, publicKey } : null;
}
