// PEM (RFC 7468) text for the two Ed25519 key containers: "PUBLIC KEY" wraps
// SubjectPublicKeyInfo DER (RFC 7468 §13), "PRIVATE KEY" wraps PKCS#8 / OneAsymmetricKey DER
// (RFC 7468 §10). Output matches node:crypto's `export({ format: 'pem' })` byte for byte:
// 64-character lines and a trailing newline.
//
// Reading is strict on purpose. A record carries its signer's key inline as PEM, and the key,
// not the text, is what gets trusted; so a PEM text must denote exactly one key: exactly one
// block, nothing but whitespace around it, no RFC 1421 headers, matching BEGIN/END labels, and
// canonical base64 (RFC 4648 §4 with canonical padding bits, §3.5). Line breaks may be LF or
// CRLF and lines any length.

import { base64 } from '@scure/base';
import { SignError, describeValue } from './errors.js';

/** The PEM labels this package reads and writes. */
export type PemLabel = 'PUBLIC KEY' | 'PRIVATE KEY';

/** Wraps DER bytes in a PEM block with the given label. */
export function encodePem(label: PemLabel, der: Uint8Array): string {
  const body = base64.encode(der).replace(/.{64}(?=.)/g, '$&\n');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

const BLOCK = /^-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)\r?\n?-----END ([^-\r\n]*)-----$/;

/** The DER bytes inside a single PEM block with the expected label. */
export function decodePem(pem: unknown, label: PemLabel): Uint8Array {
  if (typeof pem !== 'string') {
    throw new SignError(
      'ARG_INVALID_TYPE',
      `expected ${label} PEM text, got ${describeValue(pem)}`,
    );
  }
  const text = pem.trim();
  const match = BLOCK.exec(text);
  if (match === null) {
    throw malformed(
      label,
      pem.includes('-----BEGIN ')
        ? 'text that is not one complete PEM block'
        : 'text with no PEM block',
    );
  }
  const [, begin = '', body = '', end = ''] = match;
  if (begin !== end) throw malformed(label, `BEGIN ${begin} closed by END ${end}`);
  if (body.includes('-----')) throw malformed(label, 'more than one PEM block');
  if (begin !== label) {
    throw malformed(label, `a "${begin}" block`);
  }
  if (body.includes(':')) throw malformed(label, 'PEM headers (encrypted or legacy PEM)');
  const der = canonicalBase64(body.replace(/[ \t\r\n]/g, ''));
  if (der === null) throw malformed(label, 'a body that is not canonical base64');
  if (der.length === 0) throw malformed(label, 'an empty body');
  return der;
}

/**
 * Decodes padded standard base64, or returns null when `text` is not canonical base64: a
 * length that is not a multiple of 4, a character outside the alphabet (whitespace included),
 * misplaced padding, or non-zero padding bits (RFC 4648 §3.5 lets decoders reject those, and
 * rejecting them keeps the encoding of a key unique). @scure/base refuses all of these.
 */
export function canonicalBase64(text: string): Uint8Array | null {
  try {
    return base64.decode(text);
  } catch {
    return null;
  }
}

function malformed(label: PemLabel, got: string): SignError {
  return new SignError(
    'KEY_PEM_MALFORMED',
    `expected one "-----BEGIN ${label}-----" PEM block, got ${got}`,
  );
}
