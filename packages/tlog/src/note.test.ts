// C2SP signed-note interop: the reference example of golang.org/x/mod/sumdb/note (the
// PeterNeumann key and note) reproduced byte for byte, and hostile notes refused.
import { base64 } from '@scure/base';
import { publicKeyFromPrivateKey } from '@runback/sign';
import { describe, expect, it } from 'vitest';
import {
  parseNote,
  parseVerifierKey,
  signNote,
  verifierKeyText,
  verifyNoteSignature,
} from './note.js';

const VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const SKEY_MATERIAL = 'AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const TEXT =
  "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const NOTE = `${TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

const seed = base64.decode(SKEY_MATERIAL).slice(1);
const publicKey = publicKeyFromPrivateKey(seed);

describe('signed notes (reference example)', () => {
  it('derives the reference verifier key from the reference signer key', () => {
    expect(verifierKeyText('PeterNeumann', publicKey)).toBe(VKEY);
    expect(parseVerifierKey(VKEY)).toEqual({ name: 'PeterNeumann', publicKey });
  });

  it('signs the reference text into the reference note, byte for byte', () => {
    expect(signNote(TEXT, 'PeterNeumann', seed, publicKey)).toBe(NOTE);
  });

  it('verifies the reference note and refuses an edited one', () => {
    const parsed = parseNote(NOTE);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(verifyNoteSignature(parsed.note, 'PeterNeumann', publicKey)).toBe('verified');
    const edited = parseNote(NOTE.replace('cryptography', 'cryptographY'));
    if (!edited.ok) throw new Error(edited.error.message);
    expect(verifyNoteSignature(edited.note, 'PeterNeumann', publicKey)).toBe('invalid');
    expect(verifyNoteSignature(parsed.note, 'SomeoneElse', publicKey)).toBe('absent');
  });

  it('refuses verifier keys whose ID, algorithm or length is wrong', () => {
    expect(parseVerifierKey(VKEY.replace('c74f20a3', 'c74f20a4'))).toBeNull();
    expect(parseVerifierKey(VKEY.replace('+ARpc', '+AhpC'))).toBeNull();
    expect(parseVerifierKey(VKEY.slice(0, -4))).toBeNull();
    expect(parseVerifierKey('PeterNeumann')).toBeNull();
    expect(parseVerifierKey(42)).toBeNull();
  });

  it.each([
    ['no signature block', TEXT],
    ['no signature lines', `${TEXT}\n`],
    ['a line without the em dash', `${TEXT}\n- PeterNeumann AAAAAAAA\n`],
    ['a signature that is not base64', `${TEXT}\n\u2014 PeterNeumann !!!!\n`],
    ['a too-short signature', `${TEXT}\n\u2014 PeterNeumann AAAA\n`],
    ['no final newline', NOTE.slice(0, -1)],
    ['a control character', NOTE.replace('problem,', 'problem\u0007,')],
    ['not text', 17],
  ])('refuses a note with %s', (_label, note) => {
    expect(parseNote(note).ok).toBe(false);
  });
});
