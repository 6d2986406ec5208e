// Hand-written DER for the two Ed25519 key containers this package reads and writes. No ASN.1
// library: the shapes are fixed by RFC 8410, so writing is a constant prefix plus the key, and
// reading walks a handful of TLVs.
//
//   SubjectPublicKeyInfo (RFC 5280 §4.1, RFC 8410 §4):
//     30 2a                      SEQUENCE, 42 bytes
//        30 05 06 03 2b 65 70    AlgorithmIdentifier { id-Ed25519 1.3.101.112 } (no parameters)
//        03 21 00 <32 bytes>     BIT STRING, 0 unused bits, the public key A
//
//   OneAsymmetricKey (RFC 5958 §2, RFC 8410 §7), version 1 (v1) as node:crypto writes it:
//     30 2e 02 01 00 30 05 06 03 2b 65 70 04 22 04 20 <32-byte seed>
//   version 2 (v2), as OpenSSL and others may write it, adds the public key:
//     ... 81 21 00 <32 bytes>    [1] IMPLICIT BIT STRING publicKey
//
// Readers accept any attributes ([0]) and, in v2, the public key (which must match the seed).
// RFC 8410 §3: for id-Ed25519 the AlgorithmIdentifier parameters MUST be absent.

import { equalBytes } from '@noble/curves/utils.js';
import { concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { SignError } from './errors.js';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32-byte key follows. */
export const SPKI_PREFIX: Uint8Array = hexToBytes('302a300506032b6570032100');

/** DER prefix of an Ed25519 PKCS#8 v1 OneAsymmetricKey; the 32-byte seed follows. */
export const PKCS8_V1_PREFIX: Uint8Array = hexToBytes('302e020100300506032b657004220420');

/** Content bytes of the id-Ed25519 OBJECT IDENTIFIER, 1.3.101.112 (RFC 8410 §3). */
const ED25519_OID = Uint8Array.of(0x2b, 0x65, 0x70);

const TAG_INTEGER = 0x02;
const TAG_BIT_STRING = 0x03;
const TAG_OCTET_STRING = 0x04;
const TAG_OID = 0x06;
const TAG_SEQUENCE = 0x30;
const TAG_ATTRIBUTES = 0xa0; // [0] IMPLICIT SET OF Attribute (constructed)
const TAG_PUBLIC_KEY = 0x81; // [1] IMPLICIT BIT STRING (primitive)

interface Tlv {
  readonly tag: number;
  /** The content bytes (a view into the input). */
  readonly value: Uint8Array;
  /** Offset just past this TLV. */
  readonly next: number;
}

/**
 * Reads one DER TLV at `offset` (single-byte tags only, which is all these structures use).
 * Rejects BER-only forms: indefinite lengths and non-minimal length encodings.
 */
function readTlv(der: Uint8Array, offset: number, what: string): Tlv {
  const tag = der[offset];
  let lengthByte = der[offset + 1];
  if (tag === undefined || lengthByte === undefined) {
    throw malformed(what, `${der.length - offset} bytes where a TLV was expected`);
  }
  if ((tag & 0x1f) === 0x1f) throw malformed(what, `a multi-byte tag 0x${hex2(tag)}`);
  let start = offset + 2;
  let length = lengthByte;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    if (count === 0) throw malformed(what, 'an indefinite length (BER, not DER)');
    if (count > 3) throw malformed(what, `a ${count}-byte length`);
    length = 0;
    for (let i = 0; i < count; i++) {
      lengthByte = der[start + i];
      if (lengthByte === undefined) throw malformed(what, 'a truncated length');
      length = length * 256 + lengthByte;
    }
    if (length < 0x80 || der[start] === 0)
      throw malformed(what, 'a non-minimal length (BER, not DER)');
    start += count;
  }
  const end = start + length;
  if (end > der.length) {
    throw malformed(what, `a length of ${length} with ${der.length - start} bytes left`);
  }
  return { tag, value: der.subarray(start, end), next: end };
}

function expectTag(tlv: Tlv, tag: number, what: string): Uint8Array {
  if (tlv.tag !== tag) throw malformed(what, `tag 0x${hex2(tlv.tag)}, not 0x${hex2(tag)}`);
  return tlv.value;
}

/**
 * Reads an AlgorithmIdentifier and requires id-Ed25519 with absent parameters. A different OID
 * means a well-formed key of another algorithm (RSA, EC, X25519...): KEY_NOT_ED25519.
 */
function readEd25519Algorithm(der: Uint8Array, offset: number, where: string): number {
  const algorithm = readTlv(der, offset, `${where} AlgorithmIdentifier`);
  const body = expectTag(algorithm, TAG_SEQUENCE, `${where} AlgorithmIdentifier`);
  const oid = readTlv(body, 0, `${where} algorithm OID`);
  const oidBytes = expectTag(oid, TAG_OID, `${where} algorithm OID`);
  if (!equalBytes(oidBytes, ED25519_OID)) {
    throw new SignError(
      'KEY_NOT_ED25519',
      `expected an Ed25519 key (OID 1.3.101.112), got a key with OID ${oidToString(oidBytes)}`,
    );
  }
  if (oid.next !== body.length) {
    throw malformed(
      `${where} AlgorithmIdentifier`,
      'parameters, which RFC 8410 §3 forbids for Ed25519',
    );
  }
  return algorithm.next;
}

/** The SubjectPublicKeyInfo DER of a raw 32-byte Ed25519 public key. */
export function encodeSpki(publicKey: Uint8Array): Uint8Array {
  return concatBytes(SPKI_PREFIX, publicKey);
}

/** The raw 32-byte public key from Ed25519 SubjectPublicKeyInfo DER. */
export function decodeSpki(der: Uint8Array): Uint8Array {
  const outer = readTlv(der, 0, 'SubjectPublicKeyInfo');
  const body = expectTag(outer, TAG_SEQUENCE, 'SubjectPublicKeyInfo');
  if (outer.next !== der.length) throw malformed('SubjectPublicKeyInfo', 'trailing bytes');
  const afterAlgorithm = readEd25519Algorithm(body, 0, 'SubjectPublicKeyInfo');
  const bits = readTlv(body, afterAlgorithm, 'subjectPublicKey');
  const key = bitStringKey(expectTag(bits, TAG_BIT_STRING, 'subjectPublicKey'), 'subjectPublicKey');
  if (bits.next !== body.length) throw malformed('SubjectPublicKeyInfo', 'trailing members');
  return new Uint8Array(key);
}

/** The PKCS#8 v1 (RFC 5958 OneAsymmetricKey, version 0) DER of a 32-byte Ed25519 seed. */
export function encodePkcs8(seed: Uint8Array): Uint8Array {
  return concatBytes(PKCS8_V1_PREFIX, seed);
}

/** What a PKCS#8 Ed25519 private key holds. */
export interface DecodedPkcs8 {
  /** The 32-byte private key (the RFC 8032 seed). */
  readonly seed: Uint8Array;
  /** The public key of a v2 OneAsymmetricKey, when present. */
  readonly publicKey: Uint8Array | null;
}

/**
 * Reads an Ed25519 PKCS#8 private key: version 0 (v1) or 1 (v2, RFC 5958), optional
 * attributes (ignored), and in v2 an optional public key. The caller checks that the public
 * key matches the seed.
 */
export function decodePkcs8(der: Uint8Array): DecodedPkcs8 {
  const outer = readTlv(der, 0, 'PrivateKeyInfo');
  const body = expectTag(outer, TAG_SEQUENCE, 'PrivateKeyInfo');
  if (outer.next !== der.length) throw malformed('PrivateKeyInfo', 'trailing bytes');

  const version = readTlv(body, 0, 'PrivateKeyInfo version');
  const versionBytes = expectTag(version, TAG_INTEGER, 'PrivateKeyInfo version');
  if (versionBytes.length !== 1 || (versionBytes[0] !== 0 && versionBytes[0] !== 1)) {
    throw malformed('PrivateKeyInfo version', 'a version other than v1 (0) or v2 (1)');
  }
  const v2 = versionBytes[0] === 1;

  const afterAlgorithm = readEd25519Algorithm(body, version.next, 'PrivateKeyInfo');
  const privateKey = readTlv(body, afterAlgorithm, 'privateKey');
  // RFC 8410 §7: the privateKey OCTET STRING wraps CurvePrivateKey ::= OCTET STRING (32 bytes).
  const inner = expectTag(privateKey, TAG_OCTET_STRING, 'privateKey');
  const curvePrivateKey = readTlv(inner, 0, 'CurvePrivateKey');
  const seed = expectTag(curvePrivateKey, TAG_OCTET_STRING, 'CurvePrivateKey');
  if (curvePrivateKey.next !== inner.length) throw malformed('privateKey', 'trailing bytes');
  if (seed.length !== 32) throw malformed('CurvePrivateKey', `${seed.length} bytes, not 32`);

  let offset = privateKey.next;
  let publicKey: Uint8Array | null = null;
  if (offset < body.length && body[offset] === TAG_ATTRIBUTES) {
    offset = readTlv(body, offset, 'attributes').next;
  }
  if (offset < body.length && body[offset] === TAG_PUBLIC_KEY) {
    // RFC 5958 §2: "If publicKey is present, then version is set to v2."
    if (!v2) throw malformed('PrivateKeyInfo', 'a publicKey in a version 1 (v1) structure');
    const tlv = readTlv(body, offset, 'publicKey');
    publicKey = new Uint8Array(bitStringKey(tlv.value, 'publicKey'));
    offset = tlv.next;
  }
  if (offset !== body.length) throw malformed('PrivateKeyInfo', 'unexpected trailing members');
  return { seed: new Uint8Array(seed), publicKey };
}

/** The 32 key bytes inside BIT STRING content (leading byte: 0 unused bits). */
function bitStringKey(content: Uint8Array, what: string): Uint8Array {
  if (content.length !== 33 || content[0] !== 0) {
    throw malformed(
      what,
      `a BIT STRING of ${content.length} bytes, not 0 unused bits + 32 key bytes`,
    );
  }
  return content.subarray(1);
}

function malformed(what: string, got: string): SignError {
  return new SignError('KEY_DER_MALFORMED', `expected well-formed DER for ${what}, got ${got}`);
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}

/** Dotted form of OBJECT IDENTIFIER content bytes (X.690 §8.19), for error messages. */
function oidToString(bytes: Uint8Array): string {
  const arcs: number[] = [];
  let value = 0;
  for (const b of bytes) {
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(value);
      value = 0;
    }
  }
  if (arcs.length === 0) return '(empty)';
  const first = arcs[0] as number;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...arcs.slice(1)].join('.');
}
