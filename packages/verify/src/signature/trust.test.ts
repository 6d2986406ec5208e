import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateEd25519KeyPair,
  keyId,
  publicKeyToPem,
  publicKeyToSpki,
  sealRecord,
  signEd25519,
  SignError,
  type SealedRecord,
  type Signer,
} from '@runback/sign';
import { loanRun } from '../../test/support/fixtures.js';
import { checkSignature, type SignatureCheck, type TrustPolicy } from './trust.js';

const GENERATED_AT = '2026-06-14T02:47:16.000Z';
const current = generateEd25519KeyPair(new Uint8Array(32).fill(21));
const previous = generateEd25519KeyPair(new Uint8Array(32).fill(22));
const stranger = generateEd25519KeyPair(new Uint8Array(32).fill(23));
const OUTCOMES = ['unsigned', 'no-key', 'invalid', 'revoked', 'valid-unpinned', 'valid'];

function seal(signer?: Signer): SealedRecord {
  return sealRecord(loanRun(), { generatedAt: GENERATED_AT, signer });
}
const byCurrent = seal({ alg: 'Ed25519', privateKey: current.privateKey });
const byPrevious = seal({ alg: 'Ed25519', privateKey: previous.privateKey });
const byHmac = seal({ alg: 'HMAC-SHA256', key: 'shared-secret' });
const unsigned = seal();

/** A JSON copy of a manifest with some members of its signature changed (undefined deletes). */
function withSignature(
  record: SealedRecord,
  changes: Record<string, unknown>,
): Record<string, unknown> {
  const manifest = JSON.parse(JSON.stringify(record.manifest)) as Record<
    string,
    Record<string, unknown>
  >;
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete manifest['signature']?.[k];
    else (manifest['signature'] as Record<string, unknown>)[k] = v;
  }
  return manifest;
}

function flipHexChar(hex: string, index: number): string {
  const c = hex[index] === '0' ? '1' : '0';
  return hex.slice(0, index) + c + hex.slice(index + 1);
}

describe('checkSignature outcomes (docs/spec.md §5.6)', () => {
  const pinBoth: TrustPolicy = { pinned: [publicKeyToPem(current.publicKey), previous.publicKey] };

  it('valid: Ed25519 sound under a pinned key', () => {
    expect(checkSignature(byCurrent.manifest, { pinned: [current.publicKey] })).toEqual({
      outcome: 'valid',
      alg: 'Ed25519',
      keyId: keyId(current.publicKey),
    });
  });

  it('valid: a record signed by a rotated-out key still verifies when that key stays pinned', () => {
    expect(checkSignature(byPrevious.manifest, pinBoth).outcome).toBe('valid');
    expect(checkSignature(byCurrent.manifest, pinBoth).outcome).toBe('valid');
    expect(checkSignature(byPrevious.manifest, pinBoth).keyId).toBe(keyId(previous.publicKey));
  });

  it('compares pinned keys as SPKI bytes, whatever form or PEM formatting they come in', () => {
    const pem = publicKeyToPem(current.publicKey);
    for (const pinned of [
      pem,
      pem.replace(/\n/g, '\r\n'),
      `  ${pem.trimEnd()}  `,
      current.publicKey,
      publicKeyToSpki(current.publicKey),
      Buffer.from(current.publicKey),
    ]) {
      expect(checkSignature(byCurrent.manifest, { pinned: [pinned] }).outcome).toBe('valid');
    }
    // ...and the inline pubkey likewise: reformatting it does not change the outcome.
    const reformatted = withSignature(byCurrent, { pubkey: pem.replace(/\n/g, '\r\n') });
    expect(checkSignature(reformatted, { pinned: [current.publicKey] }).outcome).toBe('valid');
  });

  it('valid-unpinned: sound, but nothing pinned or a different key pinned', () => {
    const none = checkSignature(byCurrent.manifest);
    expect(none).toMatchObject({
      outcome: 'valid-unpinned',
      alg: 'Ed25519',
      keyId: keyId(current.publicKey),
    });
    expect(none.message).toMatch(
      /^expected a pinned key, got key [0-9a-f]{64} and no keys pinned$/,
    );
    expect(checkSignature(byCurrent.manifest, {}).outcome).toBe('valid-unpinned');
    const other = checkSignature(byCurrent.manifest, { pinned: [stranger.publicKey] });
    expect(other.outcome).toBe('valid-unpinned');
    expect(other.message).toMatch(/^expected one of the 1 pinned keys, got key /);
  });

  it('revoked: sound under a revoked key, which wins over pinned', () => {
    const revoked = checkSignature(byPrevious.manifest, {
      ...pinBoth,
      revoked: [previous.publicKey],
    });
    expect(revoked).toMatchObject({
      outcome: 'revoked',
      alg: 'Ed25519',
      keyId: keyId(previous.publicKey),
    });
    expect(revoked.message).toMatch(/^expected a key that is not revoked, got revoked key /);
    expect(
      checkSignature(byPrevious.manifest, { revoked: [publicKeyToPem(previous.publicKey)] })
        .outcome,
    ).toBe('revoked');
    // Revoking one key leaves the other valid.
    expect(
      checkSignature(byCurrent.manifest, { ...pinBoth, revoked: [previous.publicKey] }).outcome,
    ).toBe('valid');
  });

  it('revoked only when sound: a broken signature by a revoked key is invalid', () => {
    const broken = withSignature(byPrevious, {
      value: flipHexChar(byPrevious.manifest.signature?.value ?? '', 5),
    });
    expect(checkSignature(broken, { revoked: [previous.publicKey] }).outcome).toBe('invalid');
  });

  it('invalid: one changed character in the signature hex, or in a digest', () => {
    const value = byCurrent.manifest.signature?.value ?? '';
    for (const index of [0, 63, 64, 127]) {
      const check = checkSignature(
        withSignature(byCurrent, { value: flipHexChar(value, index) }),
        pinBoth,
      );
      expect(check).toMatchObject({
        outcome: 'invalid',
        alg: 'Ed25519',
        keyId: keyId(current.publicKey),
      });
      expect(check.message).toMatch(
        /^expected an Ed25519 signature of the payload by key [0-9a-f]{64}, got one that does not verify$/,
      );
    }
    const manifest = JSON.parse(JSON.stringify(byCurrent.manifest)) as Record<string, unknown>;
    manifest['content_digest'] = flipHexChar(byCurrent.manifest.content_digest, 0);
    expect(checkSignature(manifest, pinBoth).outcome).toBe('invalid');
    const replayed = JSON.parse(JSON.stringify(byCurrent.manifest)) as {
      replay: { cassette_digest: string };
    };
    replayed.replay.cassette_digest = flipHexChar(replayed.replay.cassette_digest, 10);
    expect(checkSignature(replayed, pinBoth).outcome).toBe('invalid');
  });

  it('invalid: a signature by another key than the inline pubkey', () => {
    const swapped = withSignature(byCurrent, { pubkey: publicKeyToPem(stranger.publicKey) });
    expect(checkSignature(swapped, { pinned: [stranger.publicKey] }).outcome).toBe('invalid');
  });

  it('invalid: malformed hex (uppercase, wrong length, non-hex, not a string)', () => {
    const value = byCurrent.manifest.signature?.value ?? '';
    for (const bad of [
      value.toUpperCase(),
      value.slice(2),
      `${value}00`,
      `${value.slice(0, 127)}z`,
      '',
      42,
      null,
      [value],
    ]) {
      const check = checkSignature(withSignature(byCurrent, { value: bad }), pinBoth);
      expect(check.outcome).toBe('invalid');
      expect(check.message).toMatch(
        /^expected signature\.value to be 128 lowercase hex characters, got /,
      );
    }
    const hmacValue = byHmac.manifest.signature?.value ?? '';
    const hmac = checkSignature(withSignature(byHmac, { value: hmacValue.toUpperCase() }), {
      hmacKey: 'shared-secret',
    });
    expect(hmac.outcome).toBe('invalid');
    expect(hmac.message).toMatch(/64 lowercase hex characters/);
    // Malformed hex is invalid even when no HMAC key is at hand.
    expect(checkSignature(withSignature(byHmac, { value: 'zz' }), {}).outcome).toBe('invalid');
  });

  it('invalid: an unknown alg, never treated as HMAC', () => {
    const hmacValue = byHmac.manifest.signature?.value;
    for (const alg of ['hmac-sha256', 'HMAC-SHA512', 'ed25519', 'none', '', 5, null, undefined]) {
      const check = checkSignature(withSignature(byHmac, { alg: alg ?? undefined }), {
        hmacKey: 'shared-secret',
      });
      expect(check.outcome, String(alg)).toBe('invalid');
      expect(check.message).toMatch(/^expected signature\.alg "Ed25519" or "HMAC-SHA256", got /);
      expect(check.alg).toBe(typeof alg === 'string' ? alg : undefined);
    }
    expect(hmacValue).toMatch(/^[0-9a-f]{64}$/);
  });

  it('invalid: an inline pubkey that is malformed PEM or not Ed25519', () => {
    const x25519 = generateKeyPairSync('x25519').publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const pem = publicKeyToPem(current.publicKey);
    for (const [pubkey, message] of [
      [
        'not a key',
        /^signature\.pubkey: expected one "-----BEGIN PUBLIC KEY-----" PEM block, got /,
      ],
      [pem + pem, /more than one PEM block/],
      [
        x25519,
        /^signature\.pubkey: expected an Ed25519 key \(OID 1\.3\.101\.112\), got a key with OID 1\.3\.101\.110$/,
      ],
      [42, /^signature\.pubkey: expected PUBLIC KEY PEM text, got number 42$/],
      [null, /got null/],
      [{ pem }, /got an object/],
    ] as const) {
      const check = checkSignature(withSignature(byCurrent, { pubkey }), {
        pinned: [current.publicKey],
      });
      expect(check.outcome).toBe('invalid');
      expect(check.message).toMatch(message);
    }
  });

  it('invalid: digests that are not strings', () => {
    for (const change of [
      { content_digest: 5 },
      { content_digest: null },
      { replay: null },
      { replay: { cassette_digest: ['x'] } },
      { replay: 'x' },
    ]) {
      const manifest = { ...JSON.parse(JSON.stringify(byCurrent.manifest)), ...change };
      const check = checkSignature(manifest, { pinned: [current.publicKey] });
      expect(check.outcome).toBe('invalid');
      expect(check.message).toMatch(
        /^expected manifest\.content_digest and manifest\.replay\.cassette_digest to be strings, got /,
      );
    }
  });

  it('HMAC: valid with the right key (string or bytes), invalid with a wrong one, no-key without', () => {
    expect(checkSignature(byHmac.manifest, { hmacKey: 'shared-secret' })).toEqual({
      outcome: 'valid',
      alg: 'HMAC-SHA256',
    });
    expect(
      checkSignature(byHmac.manifest, { hmacKey: new TextEncoder().encode('shared-secret') })
        .outcome,
    ).toBe('valid');
    const wrong = checkSignature(byHmac.manifest, { hmacKey: 'shared-secreT' });
    expect(wrong.outcome).toBe('invalid');
    expect(wrong.message).toMatch(/^expected the HMAC-SHA256 tag to match/);
    const value = byHmac.manifest.signature?.value ?? '';
    expect(
      checkSignature(withSignature(byHmac, { value: flipHexChar(value, 63) }), {
        hmacKey: 'shared-secret',
      }).outcome,
    ).toBe('invalid');
    const noKey = checkSignature(byHmac.manifest, { pinned: [current.publicKey] });
    expect(noKey).toEqual({
      outcome: 'no-key',
      alg: 'HMAC-SHA256',
      message: 'expected an HMAC key to check the HMAC-SHA256 signature, got none',
    });
    expect(checkSignature(byHmac.manifest).outcome).toBe('no-key');
    // An empty HMAC key is a key: the tag is checked (and here does not match).
    expect(checkSignature(byHmac.manifest, { hmacKey: '' }).outcome).toBe('invalid');
  });

  it('HMAC with several keys: valid when any key matches, as one wrong key gives without', () => {
    // byHmac is signed with 'shared-secret' (key B); 'rotated-in' (key A) is another key.
    const keyB = 'shared-secret';
    const keyA = 'rotated-in';
    expect(checkSignature(byHmac.manifest, { hmacKey: [keyA, keyB] })).toEqual({
      outcome: 'valid',
      alg: 'HMAC-SHA256',
    });
    expect(checkSignature(byHmac.manifest, { hmacKey: [keyB, keyA] }).outcome).toBe('valid');
    expect(
      checkSignature(byHmac.manifest, {
        hmacKey: [new TextEncoder().encode(keyA), new TextEncoder().encode(keyB)],
      }).outcome,
    ).toBe('valid');
    // Key A alone: the same outcome as the single wrong key, in array form or not.
    const aloneA = checkSignature(byHmac.manifest, { hmacKey: keyA });
    expect(aloneA.outcome).toBe('invalid');
    expect(checkSignature(byHmac.manifest, { hmacKey: [keyA] })).toEqual(aloneA);
    const neither = checkSignature(byHmac.manifest, { hmacKey: [keyA, 'other'] });
    expect(neither).toEqual({
      outcome: 'invalid',
      alg: 'HMAC-SHA256',
      message:
        'expected the HMAC-SHA256 tag to match the payload under one of the 2 given keys, got a different tag',
    });
    // An empty list is no key.
    expect(checkSignature(byHmac.manifest, { hmacKey: [] }).outcome).toBe('no-key');
    // A tampered tag matches none of the keys.
    const value = byHmac.manifest.signature?.value ?? '';
    expect(
      checkSignature(withSignature(byHmac, { value: flipHexChar(value, 0) }), {
        hmacKey: [keyA, keyB],
      }).outcome,
    ).toBe('invalid');
  });

  it('an HMAC key does not make an Ed25519 signature anything but Ed25519', () => {
    expect(checkSignature(byCurrent.manifest, { hmacKey: 'shared-secret' }).outcome).toBe(
      'valid-unpinned',
    );
  });

  it('unsigned: signed is not true, or there is no signature', () => {
    const unsignedCheck = checkSignature(unsigned.manifest, pinBoth);
    expect(unsignedCheck).toEqual({
      outcome: 'unsigned',
      message: 'expected manifest.signed to be true, got boolean false',
    });
    for (const signed of [false, 'true', 1, null, undefined]) {
      const manifest: Record<string, unknown> = { ...byCurrent.manifest, signed };
      if (signed === undefined) delete manifest['signed'];
      expect(checkSignature(manifest, pinBoth).outcome).toBe('unsigned');
    }
    expect(checkSignature({ ...byCurrent.manifest, signature: undefined }, pinBoth).outcome).toBe(
      'unsigned',
    );
    expect(checkSignature({ ...byCurrent.manifest, signature: null }, pinBoth).outcome).toBe(
      'unsigned',
    );
    const { signature: _omit, ...withoutSignature } = byCurrent.manifest;
    expect(checkSignature(withoutSignature, pinBoth)).toEqual({
      outcome: 'unsigned',
      message: 'expected manifest.signature, got undefined',
    });
  });

  it('invalid: signed is true but the signature is not an object', () => {
    for (const signature of ['abc', 42, true, []]) {
      const check = checkSignature({ ...byCurrent.manifest, signature }, pinBoth);
      expect(check.outcome).toBe('invalid');
      expect(check.message).toMatch(/^expected manifest\.signature to be an object, got /);
    }
  });
});

describe('Ed25519 signature without an inline pubkey', () => {
  const bare = withSignature(byPrevious, { pubkey: undefined, key_id: undefined });

  it('is valid under a pinned key, revoked under a revoked one, else no-key', () => {
    expect(checkSignature(bare, { pinned: [current.publicKey, previous.publicKey] })).toEqual({
      outcome: 'valid',
      alg: 'Ed25519',
      keyId: keyId(previous.publicKey),
    });
    expect(
      checkSignature(bare, { pinned: [previous.publicKey], revoked: [previous.publicKey] }),
    ).toMatchObject({
      outcome: 'revoked',
      keyId: keyId(previous.publicKey),
    });
    expect(
      checkSignature(bare, { pinned: [current.publicKey], revoked: [stranger.publicKey] }),
    ).toEqual({
      outcome: 'no-key',
      alg: 'Ed25519',
      message:
        'expected a pinned key that verifies the signature (no inline pubkey), got none of 1',
    });
    expect(checkSignature(bare)).toEqual({
      outcome: 'no-key',
      alg: 'Ed25519',
      message: 'expected an inline signature.pubkey or a pinned key, got neither',
    });
  });

  it('ignores key_id: the key that verifies decides', () => {
    const misleading = withSignature(byPrevious, {
      pubkey: undefined,
      key_id: keyId(current.publicKey),
    });
    expect(checkSignature(misleading, { pinned: [previous.publicKey] })).toMatchObject({
      outcome: 'valid',
      keyId: keyId(previous.publicKey),
    });
    const wrongId = withSignature(byCurrent, { key_id: 'nonsense' });
    expect(checkSignature(wrongId, { pinned: [current.publicKey] }).keyId).toBe(
      keyId(current.publicKey),
    );
  });

  it('a broken signature under no key is no-key, a broken value is invalid', () => {
    const value = byPrevious.manifest.signature?.value ?? '';
    const broken = { ...bare, signature: { alg: 'Ed25519', value: flipHexChar(value, 3) } };
    expect(checkSignature(broken, { pinned: [previous.publicKey] }).outcome).toBe('no-key');
    const malformed = { ...bare, signature: { alg: 'Ed25519', value: 'nope' } };
    expect(checkSignature(malformed, { pinned: [previous.publicKey] }).outcome).toBe('invalid');
  });
});

describe('checkSignature on hostile or malformed manifests', () => {
  it('never throws for garbage manifests', () => {
    const garbage: unknown[] = [
      null,
      undefined,
      0,
      42,
      Number.NaN,
      'manifest',
      true,
      [],
      [byCurrent.manifest],
      {},
      { signed: true },
      { signed: true, signature: {} },
      { signed: true, signature: { alg: {}, value: [], pubkey: 5, key_id: null } },
      { signed: true, signature: { alg: 'Ed25519', value: {}, pubkey: [] } },
      { signed: true, signature: { alg: 'Ed25519', value: '0'.repeat(128), pubkey: 'x' } },
      {
        signed: true,
        signature: { alg: 'Ed25519', value: '0'.repeat(128) },
        content_digest: 'a',
        replay: { cassette_digest: 'b' },
      },
      { signed: true, signature: { alg: 'HMAC-SHA256', value: '0'.repeat(64) }, content_digest: 1 },
      JSON.parse('{"signed":true,"__proto__":{"signature":{"alg":"HMAC-SHA256","value":"00"}}}'),
    ];
    for (const manifest of garbage) {
      const check = checkSignature(manifest, { pinned: [current.publicKey], hmacKey: 'k' });
      expect(OUTCOMES).toContain(check.outcome);
      expect(check.outcome).not.toMatch(/^valid/);
      expect(typeof check.message).toBe('string');
    }
  });

  it('never throws for arbitrary JSON values, and never calls them valid', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const check = checkSignature(value, { pinned: [current.publicKey], hmacKey: 'k' });
        expect(OUTCOMES).toContain(check.outcome);
        expect(check.outcome === 'valid' || check.outcome === 'valid-unpinned').toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws when members of a real manifest are replaced by arbitrary values', () => {
    const members = ['signed', 'signature', 'content_digest', 'replay'];
    const signatureMembers = ['alg', 'value', 'pubkey', 'key_id'];
    fc.assert(
      fc.property(
        fc.constantFrom(...members, ...signatureMembers),
        fc.jsonValue(),
        (member, value) => {
          const manifest = JSON.parse(JSON.stringify(byCurrent.manifest)) as Record<
            string,
            Record<string, unknown>
          >;
          if (signatureMembers.includes(member))
            (manifest['signature'] as Record<string, unknown>)[member] = value;
          else (manifest as Record<string, unknown>)[member] = value;
          const check: SignatureCheck = checkSignature(manifest, { pinned: [current.publicKey] });
          expect(OUTCOMES).toContain(check.outcome);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads only own members: an inherited signature does not count', () => {
    const inherited = Object.create({
      signed: true,
      signature: byCurrent.manifest.signature,
    }) as object;
    expect(checkSignature(inherited, { pinned: [current.publicKey] }).outcome).toBe('unsigned');
    const protoMember = JSON.parse(
      `{"signed":true,"content_digest":"a","replay":{"cassette_digest":"b"},"__proto__":${JSON.stringify({ signature: byCurrent.manifest.signature })}}`,
    ) as object;
    expect(checkSignature(protoMember, { pinned: [current.publicKey] }).outcome).toBe('unsigned');
  });

  it('survives a throwing getter (not JSON) with an invalid outcome', () => {
    const hostile = {
      signed: true,
      get signature(): never {
        throw new Error('boom');
      },
    };
    expect(checkSignature(hostile)).toMatchObject({ outcome: 'invalid' });
  });
});

describe('trust policy validation', () => {
  function policyError(trust: unknown): SignError {
    try {
      checkSignature(byCurrent.manifest, trust as TrustPolicy);
    } catch (err) {
      expect(err).toBeInstanceOf(SignError);
      expect(err).toBeInstanceOf(TypeError);
      return err as SignError;
    }
    throw new Error('expected a TRUST_POLICY_INVALID error, got none');
  }

  it('throws TRUST_POLICY_INVALID for a malformed policy, whatever the manifest', () => {
    const x25519 = generateKeyPairSync('x25519').publicKey.export({
      type: 'spki',
      format: 'pem',
    }) as string;
    const notEd = policyError({ pinned: [x25519] });
    expect(notEd.code).toBe('TRUST_POLICY_INVALID');
    expect(notEd.message).toBe(
      'trust.pinned[0]: expected an Ed25519 key (OID 1.3.101.112), got a key with OID 1.3.101.110',
    );
    expect((notEd.cause as SignError).code).toBe('KEY_NOT_ED25519');
    expect(policyError({ pinned: ['garbage'] }).message).toMatch(
      /^trust\.pinned\[0\]: expected one "-----BEGIN PUBLIC KEY-----"/,
    );
    expect(policyError({ revoked: [current.publicKey, new Uint8Array(31)] }).message).toMatch(
      /^trust\.revoked\[1\]: .*got 31 bytes$/,
    );
    expect(policyError({ pinned: publicKeyToPem(current.publicKey) }).message).toMatch(
      /^expected trust\.pinned to be an array of keys, got a string of \d+ characters$/,
    );
    expect(policyError({ hmacKey: 5 }).message).toBe(
      'expected trust.hmacKey to be a string, a Uint8Array or an array of them, got number 5',
    );
    expect(policyError({ hmacKey: ['a', null] }).message).toBe(
      'expected trust.hmacKey[1] to be a string or Uint8Array, got null',
    );
    expect(policyError(null).message).toBe('expected a trust policy object, got null');
    expect(policyError([]).code).toBe('TRUST_POLICY_INVALID');
    // The policy is checked even when the manifest would not need it.
    expect(() => checkSignature(null, { pinned: [42 as unknown as string] })).toThrow(SignError);
  });

  it('accepts a policy whose members are explicitly undefined', () => {
    expect(
      checkSignature(byCurrent.manifest, {
        pinned: undefined,
        revoked: undefined,
        hmacKey: undefined,
      }).outcome,
    ).toBe('valid-unpinned');
  });
});

describe('signature property', () => {
  it('any single hex-character change to a sealed Ed25519 signature makes it invalid', () => {
    const value = byCurrent.manifest.signature?.value ?? '';
    fc.assert(
      fc.property(fc.nat(127), fc.constantFrom(...'0123456789abcdef'), (index, c) => {
        fc.pre(value[index] !== c);
        const changed = value.slice(0, index) + c + value.slice(index + 1);
        expect(
          checkSignature(withSignature(byCurrent, { value: changed }), {
            pinned: [current.publicKey],
          }).outcome,
        ).toBe('invalid');
      }),
      { numRuns: 200 },
    );
  });

  it('a signature made directly over the payload checks out like a sealed one', () => {
    const manifest = JSON.parse(JSON.stringify(unsigned.manifest)) as Record<string, unknown>;
    manifest['signed'] = true;
    manifest['signature'] = {
      alg: 'Ed25519',
      value: signEd25519(
        `${unsigned.manifest.content_digest}:${unsigned.manifest.replay.cassette_digest}`,
        stranger.privateKey,
      ),
      pubkey: publicKeyToPem(stranger.publicKey),
    };
    expect(checkSignature(manifest, { pinned: [stranger.publicKey] }).outcome).toBe('valid');
  });
});

describe('mixed-order Ed25519 keys', () => {
  // The holder of revoked key A (seed 0x1f × 32) signs "aa:bb" under A + T, T of order 8
  // (S = r + k·a with k over A + T: the cofactored equation holds). Without the torsion-free
  // rule the record was valid-unpinned, not revoked: the revoked key signed again.
  const revoked = generateEd25519KeyPair(new Uint8Array(32).fill(31)).publicKey;
  const mixed = Uint8Array.from(
    Buffer.from('20b0dd639ff5a9908d87615c532fb7c62e3bd676f77ee412d59b18f25c769c38', 'hex'),
  );
  const value =
    '17ffad8068dc0de9935d36636f3ad1b5de6de3413b12388e453b05f2a4c1d3dba11cc4c9c0e98f2d4767a3eff8904a415407876209bf493dde4d87374962200f';
  const manifest = (pubkey?: string): Record<string, unknown> => ({
    signed: true,
    content_digest: 'aa',
    replay: { cassette_digest: 'bb' },
    signature: pubkey === undefined ? { alg: 'Ed25519', value } : { alg: 'Ed25519', value, pubkey },
  });

  it('an inline mixed-order key is invalid, even with its prime-order part revoked', () => {
    const check = checkSignature(manifest(publicKeyToPem(mixed)), { revoked: [revoked] });
    expect(check.outcome).toBe('invalid');
    expect(check.message).toMatch(/torsion-free/);
  });

  it('a mixed-order key cannot be pinned or revoked (the policy is malformed)', () => {
    for (const policy of [{ pinned: [mixed] }, { revoked: [publicKeyToPem(mixed)] }]) {
      expect(() => checkSignature(manifest(), policy)).toThrow(
        expect.objectContaining({ code: 'TRUST_POLICY_INVALID' }),
      );
    }
  });
});
