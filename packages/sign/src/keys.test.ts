import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as nodeSign,
} from 'node:crypto';
import { hexToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateEd25519KeyPair,
  publicKeyFromPrivateKey,
  signEd25519,
  verifyEd25519,
} from './ed25519.js';
import { SignError } from './errors.js';
import { keyId } from './key-id.js';
import {
  normalizeKey,
  privateKeyFromPem,
  privateKeyToPem,
  publicKeyFromPem,
  publicKeyFromSpki,
  publicKeyToPem,
  publicKeyToSpki,
} from './keys.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const b64url = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64url'));

/** RFC 8032 §7.1 test 1. */
const SEED1 = hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
const PK1 = hexToBytes('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');

function pem(label: string, der: Uint8Array | string): string {
  const body = Buffer.from(typeof der === 'string' ? hexToBytes(der) : der).toString('base64');
  return `-----BEGIN ${label}-----\n${body.replace(/.{64}(?=.)/g, '$&\n')}\n-----END ${label}-----\n`;
}

function codeOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SignError);
    expect(err).toBeInstanceOf(TypeError);
    return { code: (err as SignError).code, message: (err as SignError).message };
  }
  throw new Error('expected a SignError, got no exception');
}

describe('interoperability with node:crypto', () => {
  it("imports node's PEM exports, both public and private", () => {
    for (let i = 0; i < 5; i++) {
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const jwk = privateKey.export({ format: 'jwk' });
      const publicPem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
      const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
      expect(publicKeyFromPem(publicPem)).toEqual(b64url(jwk.x as string));
      expect(privateKeyFromPem(privatePem)).toEqual(b64url(jwk.d as string));
      // And the imported keys work together with node's.
      const signature = signEd25519('payload', privateKeyFromPem(privatePem));
      expect(signature).toBe(nodeSign(null, Buffer.from('payload'), privateKey).toString('hex'));
      expect(verifyEd25519(signature, 'payload', publicKeyFromPem(publicPem))).toBe(true);
      // Node's DER exports too.
      expect(publicKeyFromSpki(publicKey.export({ type: 'spki', format: 'der' }))).toEqual(
        b64url(jwk.x as string),
      );
    }
  });

  it('writes PEM identical to node, which node imports back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const pair = generateEd25519KeyPair(seed);
        const ourPublic = publicKeyToPem(pair.publicKey);
        const ourPrivate = privateKeyToPem(pair.privateKey);
        const nodePrivate = createPrivateKey(ourPrivate);
        const nodePublic = createPublicKey(ourPublic);
        expect(nodePrivate.asymmetricKeyType).toBe('ed25519');
        expect(nodePublic.asymmetricKeyType).toBe('ed25519');
        expect(b64url(nodePrivate.export({ format: 'jwk' }).d as string)).toEqual(pair.privateKey);
        expect(b64url(nodePublic.export({ format: 'jwk' }).x as string)).toEqual(pair.publicKey);
        expect(nodePrivate.export({ type: 'pkcs8', format: 'pem' })).toBe(ourPrivate);
        expect(nodePublic.export({ type: 'spki', format: 'pem' })).toBe(ourPublic);
        expect(createPublicKey(nodePrivate).export({ type: 'spki', format: 'pem' })).toBe(
          ourPublic,
        );
        expect(hex(publicKeyToSpki(pair.publicKey))).toBe(
          hex(nodePublic.export({ type: 'spki', format: 'der' })),
        );
      }),
      { numRuns: 25 },
    );
  });

  it('reads PKCS#8 v2 (RFC 5958): the RFC 8410 §10.3 example, with attributes and public key', () => {
    // Node 20's OpenSSL 3.0 cannot read this structure ("wrong tag"), which is one reason this
    // package writes v1 only.
    const rfc8410v2 = [
      '-----BEGIN PRIVATE KEY-----',
      'MHICAQEwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC',
      'oB8wHQYKKoZIhvcNAQkJFDEPDA1DdXJkbGUgQ2hhaXJzgSEAGb9ECWmEzf6FQbrB',
      'Z9w7lshQhqowtrbLDFw4rXAxZuE=',
      '-----END PRIVATE KEY-----',
    ].join('\n');
    const rfc8410Public =
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----';
    const seed = privateKeyFromPem(rfc8410v2);
    expect(hex(seed)).toBe('d4ee72dbf913584ad5b6d8f1f769f8ad3afe7c28cbf1d4fbe097a88f44755842');
    expect(publicKeyFromPrivateKey(seed)).toEqual(publicKeyFromPem(rfc8410Public));
    // The same key in v1 (RFC 8410 §10.3's first example) is what privateKeyToPem writes.
    expect(privateKeyToPem(seed)).toBe(
      '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n',
    );
  });

  it('reads PKCS#8 v2 without attributes, without the public key, and v1 with attributes', () => {
    const v2 = `3051020101300506032b657004220420${hex(SEED1)}812100${hex(PK1)}`;
    expect(privateKeyFromPem(pem('PRIVATE KEY', v2))).toEqual(SEED1);
    expect(
      privateKeyFromPem(pem('PRIVATE KEY', `302e020101300506032b657004220420${hex(SEED1)}`)),
    ).toEqual(SEED1);
    expect(
      privateKeyFromPem(pem('PRIVATE KEY', `3030020100300506032b657004220420${hex(SEED1)}a000`)),
    ).toEqual(SEED1);
  });

  it('refuses a PKCS#8 v2 whose public key is not derived from the seed', () => {
    const other = generateEd25519KeyPair(new Uint8Array(32).fill(5)).publicKey;
    const v2 = `3051020101300506032b657004220420${hex(SEED1)}812100${hex(other)}`;
    expect(codeOf(() => privateKeyFromPem(pem('PRIVATE KEY', v2))).code).toBe('KEY_MISMATCH');
    // A public key in a v1 structure is not allowed (RFC 5958 §2).
    const v1 = `3051020100300506032b657004220420${hex(SEED1)}812100${hex(PK1)}`;
    expect(codeOf(() => privateKeyFromPem(pem('PRIVATE KEY', v1))).code).toBe('KEY_DER_MALFORMED');
  });
});

describe('SPKI and PKCS#8 DER', () => {
  it('writes the fixed RFC 8410 prefixes', () => {
    expect(hex(publicKeyToSpki(PK1))).toBe(`302a300506032b6570032100${hex(PK1)}`);
    expect(publicKeyFromSpki(publicKeyToSpki(PK1))).toEqual(PK1);
    expect(privateKeyToPem(SEED1)).toBe(
      pem('PRIVATE KEY', `302e020100300506032b657004220420${hex(SEED1)}`),
    );
  });

  it('names a key of another algorithm KEY_NOT_ED25519, with its OID', () => {
    const x25519 = generateKeyPairSync('x25519').publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const ed448 = generateKeyPairSync('ed448').publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const rsaPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    expect(codeOf(() => publicKeyFromPem(x25519))).toEqual({
      code: 'KEY_NOT_ED25519',
      message: 'expected an Ed25519 key (OID 1.3.101.112), got a key with OID 1.3.101.110',
    });
    expect(codeOf(() => publicKeyFromPem(ed448)).message).toMatch(
      /got a key with OID 1\.3\.101\.113$/,
    );
    expect(codeOf(() => publicKeyFromPem(ec)).message).toMatch(
      /got a key with OID 1\.2\.840\.10045\.2\.1$/,
    );
    expect(codeOf(() => publicKeyFromPem(rsaPem)).message).toMatch(
      /got a key with OID 1\.2\.840\.113549\.1\.1\.1$/,
    );
    const rsaPrivate = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    expect(codeOf(() => privateKeyFromPem(rsaPrivate)).code).toBe('KEY_NOT_ED25519');
    const x25519Private = generateKeyPairSync('x25519').privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    expect(codeOf(() => privateKeyFromPem(x25519Private)).code).toBe('KEY_NOT_ED25519');
  });

  it('refuses malformed DER with KEY_DER_MALFORMED', () => {
    const good = `302a300506032b6570032100${hex(PK1)}`;
    const cases: [string, RegExp][] = [
      [good.slice(0, -2), /length of 42 with 41 bytes left/],
      [good + '00', /trailing bytes/],
      [`302c300706032b65700500032100${hex(PK1)}`, /parameters/], // NULL parameters
      [`302a300506032b6570032101${hex(PK1)}`, /0 unused bits/],
      [`3029300506032b65700320${'00'}${hex(PK1).slice(2)}`, /BIT STRING of 32 bytes/],
      [`30812a300506032b6570032100${hex(PK1)}`, /non-minimal length/],
      [`3080300506032b6570032100${hex(PK1)}0000`, /indefinite length/],
      [`312a300506032b6570032100${hex(PK1)}`, /tag 0x31, not 0x30/],
      ['', /0 bytes where a TLV was expected/],
    ];
    for (const [der, message] of cases) {
      const result = codeOf(() => publicKeyFromSpki(hexToBytes(der)));
      expect(result.code, der).toBe('KEY_DER_MALFORMED');
      expect(result.message, der).toMatch(message);
    }
    expect(
      codeOf(() =>
        privateKeyFromPem(pem('PRIVATE KEY', `302e020102300506032b657004220420${hex(SEED1)}`)),
      ).message,
    ).toMatch(/version other than/);
    expect(
      codeOf(() =>
        privateKeyFromPem(
          pem('PRIVATE KEY', `302d020100300506032b65700421041f${hex(SEED1).slice(2)}`),
        ),
      ).message,
    ).toMatch(/31 bytes, not 32/);
  });
});

describe('PEM', () => {
  const good = publicKeyToPem(PK1);
  const body = good.split('\n')[1] as string;

  it('writes one 60-character base64 line for a public key, with a trailing newline', () => {
    expect(good).toBe(`-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`);
    expect(body).toHaveLength(60);
  });

  it('reads the same key whatever the line breaks, line length and surrounding whitespace', () => {
    const variants = [
      good,
      good.trimEnd(),
      good.replace(/\n/g, '\r\n'),
      `\n\n  ${good}  \n`,
      `-----BEGIN PUBLIC KEY-----\n${body.slice(0, 20)}\n${body.slice(20)}\n-----END PUBLIC KEY-----`,
      `-----BEGIN PUBLIC KEY-----\n${body.slice(0, 30)}\r\n${body.slice(30)}-----END PUBLIC KEY-----`,
    ];
    for (const text of variants) {
      expect(publicKeyFromPem(text)).toEqual(PK1);
      expect(keyId(text)).toBe(keyId(PK1));
    }
  });

  it('refuses malformed PEM with KEY_PEM_MALFORMED and an "expected X, got Y" message', () => {
    const cases: [string, RegExp][] = [
      ['', /got text with no PEM block/],
      ['hello', /got text with no PEM block/],
      [body, /got text with no PEM block/],
      [good.replace('-----END PUBLIC KEY-----\n', ''), /not one complete PEM block/],
      [good + good, /more than one PEM block/],
      [`junk\n${good}`, /not one complete PEM block/],
      [`${good}trailing`, /not one complete PEM block/],
      [
        good.replace('END PUBLIC KEY', 'END PRIVATE KEY'),
        /BEGIN PUBLIC KEY closed by END PRIVATE KEY/,
      ],
      [privateKeyToPem(SEED1), /got a "PRIVATE KEY" block/],
      [good.replaceAll('PUBLIC KEY', 'RSA PUBLIC KEY'), /got a "RSA PUBLIC KEY" block/],
      [good.replace(body, body.slice(0, 10) + '*' + body.slice(11)), /not canonical base64/],
      [good.replace(body, body.slice(0, -1)), /not canonical base64/],
      [good.replace(body, ''), /an empty body/],
      [good.replace(body, `Proc-Type: 4,ENCRYPTED\n\n${body}`), /PEM headers/],
    ];
    for (const [text, message] of cases) {
      const result = codeOf(() => publicKeyFromPem(text));
      expect(result.code, text).toBe('KEY_PEM_MALFORMED');
      expect(result.message, text).toMatch(
        /^expected one "-----BEGIN PUBLIC KEY-----" PEM block, got /,
      );
      expect(result.message, text).toMatch(message);
    }
    expect(codeOf(() => privateKeyFromPem(good)).code).toBe('KEY_PEM_MALFORMED');
    expect(codeOf(() => publicKeyFromPem(42 as unknown as string))).toEqual({
      code: 'ARG_INVALID_TYPE',
      message: 'expected PUBLIC KEY PEM text, got number 42',
    });
  });

  it('refuses a PEM block whose DER is not SPKI', () => {
    expect(codeOf(() => publicKeyFromPem(pem('PUBLIC KEY', '0400'))).code).toBe(
      'KEY_DER_MALFORMED',
    );
  });
});

describe('keyId', () => {
  it('is the lowercase hex SHA-256 of the SPKI DER, as node computes it', () => {
    const nodeDer = createPublicKey(publicKeyToPem(PK1)).export({ type: 'spki', format: 'der' });
    const expected = createHash('sha256').update(nodeDer).digest('hex');
    expect(keyId(PK1)).toBe(expected);
    // Pinned so that a change to the definition cannot go unnoticed.
    expect(keyId(PK1)).toBe('06e3fd8fda29bb60ab59557de61edb0aecdb231134be30e75b455f8e1b792fa9');
  });

  it('is the same for every form of the key', () => {
    const id = keyId(PK1);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(keyId(publicKeyToPem(PK1))).toBe(id);
    expect(keyId(publicKeyToSpki(PK1))).toBe(id);
    expect(keyId(publicKeyToPem(PK1).replace(/\n/g, '\r\n'))).toBe(id);
    expect(keyId(generateEd25519KeyPair(new Uint8Array(32).fill(1)).publicKey)).not.toBe(id);
  });
});

describe('normalizeKey', () => {
  it('accepts PEM text, 32 raw bytes and 44-byte SPKI DER, returning a fresh copy', () => {
    expect(normalizeKey(publicKeyToPem(PK1))).toEqual(PK1);
    expect(normalizeKey(publicKeyToSpki(PK1))).toEqual(PK1);
    const copy = normalizeKey(PK1);
    expect(copy).toEqual(PK1);
    expect(copy).not.toBe(PK1);
    // A Buffer's slice() is a view; the copy must be a real, detached Uint8Array.
    const buffer = Buffer.from(PK1);
    const fromBuffer = normalizeKey(buffer);
    expect(fromBuffer).toEqual(PK1);
    buffer[0] = 0;
    expect(fromBuffer[0]).toBe(PK1[0]);
    const der = Buffer.from(publicKeyToSpki(PK1));
    const fromDer = normalizeKey(der);
    der[12] = 0;
    expect(fromDer).toEqual(PK1);
  });

  it('refuses anything else with a code', () => {
    expect(codeOf(() => normalizeKey(new Uint8Array(33)))).toEqual({
      code: 'KEY_WRONG_LENGTH',
      message:
        'expected an Ed25519 public key as 32 raw bytes or 44 bytes of SPKI DER, got 33 bytes',
    });
    expect(codeOf(() => normalizeKey(42 as unknown as string)).code).toBe('ARG_INVALID_TYPE');
    expect(codeOf(() => normalizeKey(hex(PK1))).code).toBe('KEY_PEM_MALFORMED');
    expect(codeOf(() => normalizeKey(privateKeyToPem(SEED1))).code).toBe('KEY_PEM_MALFORMED');
    const x25519Der = generateKeyPairSync('x25519').publicKey.export({
      type: 'spki',
      format: 'der',
    });
    expect(x25519Der).toHaveLength(44);
    expect(codeOf(() => normalizeKey(new Uint8Array(x25519Der))).code).toBe('KEY_NOT_ED25519');
  });

  it('checks argument types of the other key functions', () => {
    expect(codeOf(() => publicKeyToPem(new Uint8Array(31))).code).toBe('KEY_WRONG_LENGTH');
    expect(codeOf(() => privateKeyToPem('seed' as unknown as Uint8Array)).code).toBe(
      'ARG_INVALID_TYPE',
    );
    expect(codeOf(() => publicKeyFromSpki('der' as unknown as Uint8Array)).code).toBe(
      'ARG_INVALID_TYPE',
    );
    expect(codeOf(() => publicKeyToSpki(new Uint8Array(44))).code).toBe('KEY_WRONG_LENGTH');
  });
});
