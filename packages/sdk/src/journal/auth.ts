// Journal line authentication (docs/guides/recording.md, "What a journal proves"). The event
// chain alone is unkeyed: anyone can edit a journal line and recompute every `_hash` after it.
// A journal written with a signing key therefore carries an HMAC-SHA256 per line (RFC 2104)
// under a key derived from the signing key with HKDF-SHA256 (RFC 5869) and a random salt stored
// in the header. Only the key holder can write a line that checks, so recovery refuses a journal
// someone edited and re-chained without the key. A MAC covers its line's text; the `_hash`
// chain inside the events binds the lines' order, so lines cannot be moved or dropped from the
// middle either. Dropping lines from the end cannot be detected (a crash does exactly that).
//
// The line format: `TEXT \t MAC`, MAC being 64 lowercase hex characters. JSON text written by
// JSON.stringify never holds a raw tab, so the last tab of a line is its separator.
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { privateKeyFromPem, type Signer } from '@runback/sign';

/** The header's description of how lines are authenticated. */
export interface JournalAuth {
  readonly alg: 'HMAC-SHA256';
  readonly kdf: 'HKDF-SHA256';
  /** 32 hex characters: the HKDF salt, random per journal. */
  readonly salt: string;
}

/** HKDF `info`: binds the derived key to this one use of the signing key. */
const INFO = utf8ToBytes('runback journal line MAC v1');
const MAC_HEX = /^[0-9a-f]{64}$/;

/** A fresh `auth` member for a new journal's header. */
export function newJournalAuth(): JournalAuth {
  return { alg: 'HMAC-SHA256', kdf: 'HKDF-SHA256', salt: bytesToHex(randomBytes(16)) };
}

/** The line MAC key of a journal: HKDF-SHA256(signing key bytes, salt, info), 32 bytes. */
export function journalMacKey(signer: Signer, auth: JournalAuth): Uint8Array {
  return hkdf(sha256, signingKeyBytes(signer), hexToBytes(auth.salt), INFO, 32);
}

/** The secret bytes of a signer; an Ed25519 key as its 32-byte seed whatever its encoding. */
function signingKeyBytes(signer: Signer): Uint8Array {
  if (signer.alg === 'Ed25519') {
    const key = signer.privateKey;
    return typeof key === 'string' ? privateKeyFromPem(key) : key;
  }
  return typeof signer.key === 'string' ? utf8ToBytes(signer.key) : signer.key;
}

/** `text` followed by a tab and its MAC. */
export function authenticatedLine(key: Uint8Array, text: string): string {
  return `${text}\t${bytesToHex(hmac(sha256, key, utf8ToBytes(text)))}`;
}

/** A line split into its text and MAC; the MAC is undefined when the line carries none. */
export function splitLine(line: string): { text: string; mac: string | undefined } {
  const tab = line.lastIndexOf('\t');
  if (tab === -1) return { text: line, mac: undefined };
  const mac = line.slice(tab + 1);
  return MAC_HEX.test(mac) ? { text: line.slice(0, tab), mac } : { text: line, mac: undefined };
}

/** Whether `mac` is the MAC of `text` under `key` (constant time). */
export function macMatches(key: Uint8Array, text: string, mac: string): boolean {
  const expected = hmac(sha256, key, utf8ToBytes(text));
  const given = hexToBytes(mac);
  let diff = expected.length ^ given.length;
  for (let i = 0; i < expected.length; i++) diff |= (expected[i] ?? 0) ^ (given[i] ?? 0);
  return diff === 0;
}

/** Checks a parsed header's `auth` member: undefined when absent, an error message when malformed. */
export function authProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const auth = value as Record<string, unknown> | null;
  if (
    typeof auth !== 'object' ||
    auth === null ||
    auth['alg'] !== 'HMAC-SHA256' ||
    auth['kdf'] !== 'HKDF-SHA256' ||
    typeof auth['salt'] !== 'string' ||
    !/^[0-9a-f]{32}$/.test(auth['salt'])
  ) {
    return `expected "auth" to be {"alg":"HMAC-SHA256","kdf":"HKDF-SHA256","salt":32 hex}, got ${JSON.stringify(value)}`;
  }
  return undefined;
}
