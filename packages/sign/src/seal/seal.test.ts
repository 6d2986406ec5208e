import { createHmac, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { CanonicalError, EMPTY_SHA256, canonical } from '@runback/canonical';
import { eventHash } from '@runback/chain';
import { ReplayDigestError, cassetteDigest } from '@runback/replay-digest';
import { describe, expect, it } from 'vitest';
import { generateEd25519KeyPair, verifyEd25519 } from '../ed25519.js';
import { SignError } from '../errors.js';
import { RUN_ID, refCanonical, refSha256, sampleInput } from '../../test/support/fixtures.js';
import { keyId } from '../key-id.js';
import { privateKeyToPem, publicKeyFromPem, publicKeyToPem } from '../keys.js';
import { signaturePayload } from '../payload.js';
import { buildManifest, sealRecord, signRecord, type Signer } from './index.js';

const GENERATED_AT = '2026-06-14T02:47:16.000Z';
const pair = generateEd25519KeyPair(new Uint8Array(32).fill(11));
const ed25519Signer: Signer = { alg: 'Ed25519', privateKey: pair.privateKey };

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code ?? `uncoded ${String(err)}`;
  }
  return 'no exception';
}

describe('signaturePayload', () => {
  it('joins the two digests with a colon', () => {
    expect(signaturePayload('ab', 'cd')).toBe('ab:cd');
    expect(signaturePayload('', '')).toBe(':');
  });

  it('refuses non-strings', () => {
    expect(codeOf(() => signaturePayload(1 as unknown as string, 'x'))).toBe('ARG_INVALID_TYPE');
  });
});

describe('sealRecord', () => {
  it('writes the record members and manifest members in the documented order', () => {
    const record = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: ed25519Signer });
    expect(Object.keys(record)).toEqual(['$schema', 'manifest', 'run', 'events']);
    expect(record.$schema).toBe('runback.audit/v2');
    expect(Object.keys(record.manifest)).toEqual([
      'run_id',
      'generated_at',
      'event_count',
      'algorithm',
      'content_digest',
      'replay',
      'signed',
      'signature',
    ]);
    expect(Object.keys(record.manifest.replay)).toEqual([
      'cassette_digest',
      'entry_count',
      'algorithm',
    ]);
    expect(Object.keys(record.manifest.signature ?? {})).toEqual([
      'alg',
      'value',
      'pubkey',
      'key_id',
    ]);
    expect(record.manifest).toMatchObject({
      run_id: RUN_ID,
      generated_at: GENERATED_AT,
      event_count: 6,
      algorithm: 'sha256-chain',
      replay: { entry_count: 3, algorithm: 'oracle-chain/sha256' },
      signed: true,
    });
    // Each event is stored with its own members in canonical (sorted) order, _hash first, and
    // each value as it was given (docs/spec.md §7).
    const input = sampleInput();
    record.events.forEach((event, i) => {
      const given = input.events[i] as Record<string, unknown>;
      expect(Object.keys(event)).toEqual([...Object.keys(given), '_hash'].sort());
      for (const [name, value] of Object.entries(given)) {
        expect(JSON.stringify(event[name])).toBe(JSON.stringify(value));
      }
      expect(canonical({ ...event, _hash: undefined })).toBe(canonical(given));
    });
  });

  it('keeps the member order of every value it stores, and hashes it canonically', () => {
    const input = sampleInput();
    const events = input.events;
    const tool = events.findIndex((e) => e['type'] === 'tool');
    const given = { zeta: 1, alpha: { y: [{ d: 1, c: 2 }], b: 'x' } };
    events[tool] = { ...events[tool], output: given };
    const sorted = sealRecord(
      {
        ...input,
        events: events.map((e, i) =>
          i === tool ? { ...e, output: JSON.parse(canonical(given)) } : e,
        ),
      },
      { generatedAt: GENERATED_AT },
    );
    const record = sealRecord(input, { generatedAt: GENERATED_AT });
    expect(JSON.stringify(record.events[tool]?.['output'])).toBe(JSON.stringify(given));
    expect(record.manifest.content_digest).toBe(sorted.manifest.content_digest);
    expect(record.manifest.replay.cassette_digest).toBe(sorted.manifest.replay.cassette_digest);
    expect(record.events[tool]?._hash).toBe(sorted.events[tool]?._hash);
  });

  it('chains the events exactly as the format defines (checked against an independent reference)', () => {
    const input = sampleInput();
    const record = sealRecord(input, { generatedAt: GENERATED_AT });
    let previous = '';
    record.events.forEach((event, i) => {
      const expected = refSha256(previous + refCanonical(input.events[i]));
      expect(event._hash).toBe(expected);
      expect(eventHash(previous, event)).toBe(expected);
      previous = expected;
    });
    expect(record.manifest.content_digest).toBe(previous);
  });

  it('computes the cassette digest over llm, tool and env events in seq order (independent reference)', () => {
    const input = sampleInput();
    interface Llm {
      model: { model_id: string };
      request: unknown;
      response: unknown;
    }
    interface Tool {
      tool_name: string;
      input: unknown;
      output: unknown;
    }
    interface Env {
      kind: string;
      key: string;
      output: unknown;
    }
    const [, llm, tool, env] = input.events as unknown as [unknown, Llm, Tool, Env];
    const entries = [
      {
        kind: 'llm',
        key: refSha256(`llm:${llm.model.model_id}:${refCanonical(llm.request)}`),
        output: llm.response,
      },
      {
        kind: 'tool',
        key: refSha256(`tool:${tool.tool_name}:${refCanonical(tool.input)}`),
        output: tool.output,
      },
      { kind: env.kind, key: env.key, output: env.output },
    ];
    const expected = entries.reduce((prev, entry) => refSha256(prev + refCanonical(entry)), '');
    const record = sealRecord(input, { generatedAt: GENERATED_AT });
    expect(record.manifest.replay.cassette_digest).toBe(expected);
    expect(record.manifest.replay.entry_count).toBe(3);
    expect(cassetteDigest(record.events)).toEqual({ digest: expected, entryCount: 3 });

    // Reordering the array changes the event chain (array order) but not the cassette (seq order).
    const shuffled = { run: input.run, events: [...input.events].reverse() };
    const resealed = sealRecord(shuffled, { generatedAt: GENERATED_AT });
    expect(resealed.manifest.replay.cassette_digest).toBe(expected);
    expect(resealed.manifest.content_digest).not.toBe(record.manifest.content_digest);
  });

  it('recomputes _hash values already present, never trusting them', () => {
    const input = sampleInput();
    const honest = sealRecord(input, { generatedAt: GENERATED_AT });
    const forged = sampleInput();
    forged.events.forEach((e) => (e['_hash'] = 'f'.repeat(64)));
    const record = sealRecord(forged, { generatedAt: GENERATED_AT });
    expect(record.events.map((e) => e._hash)).toEqual(honest.events.map((e) => e._hash));
    // An existing _hash keeps its position among the members.
    const first = { _hash: 'x', ...(sampleInput().events[0] as object) };
    const sealed = sealRecord({ run: input.run, events: [first] }, { generatedAt: GENERATED_AT });
    expect(Object.keys(sealed.events[0] as object)[0]).toBe('_hash');
    expect(sealed.events[0]?._hash).toBe(honest.events[0]?._hash);
  });

  it('does not modify its input, and shares nothing with it', () => {
    const input = sampleInput();
    const before = structuredClone(input);
    const record = sealRecord(input, { generatedAt: GENERATED_AT, signer: ed25519Signer });
    expect(input).toEqual(before);
    expect(input.events[0]).not.toHaveProperty('_hash');
    record.run['name'] = 'changed';
    (record.events[1]?.['usage'] as Record<string, number>)['input_tokens'] = 0;
    expect(input).toEqual(before);
  });

  it('is deterministic and produces plain JSON data', () => {
    const a = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: ed25519Signer });
    const b = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: ed25519Signer });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  });

  it('seals a record with no events', () => {
    const record = sealRecord({ run: { run_id: 'r0' }, events: [] }, { generatedAt: GENERATED_AT });
    expect(record.manifest).toEqual({
      run_id: 'r0',
      generated_at: GENERATED_AT,
      event_count: 0,
      algorithm: 'sha256-chain',
      content_digest: EMPTY_SHA256,
      replay: { cassette_digest: EMPTY_SHA256, entry_count: 0, algorithm: 'oracle-chain/sha256' },
      signed: false,
    });
    expect(record.events).toEqual([]);
  });

  it('leaves an unsigned record without a signature member', () => {
    const record = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: undefined });
    expect(record.manifest.signed).toBe(false);
    expect('signature' in record.manifest).toBe(false);
  });

  it('signs with Ed25519 as node:crypto verifies it: payload, inline SPKI PEM, key id', () => {
    const record = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: ed25519Signer });
    const signature = record.manifest.signature;
    if (signature?.alg !== 'Ed25519') throw new Error('expected an Ed25519 signature');
    const payload = `${record.manifest.content_digest}:${record.manifest.replay.cassette_digest}`;
    expect(signature.value).toMatch(/^[0-9a-f]{128}$/);
    expect(signature.pubkey).toBe(publicKeyToPem(pair.publicKey));
    expect(signature.key_id).toBe(keyId(pair.publicKey));
    expect(
      nodeVerify(
        null,
        Buffer.from(payload, 'utf8'),
        createPublicKey(signature.pubkey),
        Buffer.from(signature.value, 'hex'),
      ),
    ).toBe(true);
    expect(verifyEd25519(signature.value, payload, publicKeyFromPem(signature.pubkey))).toBe(true);
  });

  it('accepts the Ed25519 private key as PKCS#8 PEM', () => {
    const fromBytes = sealRecord(sampleInput(), {
      generatedAt: GENERATED_AT,
      signer: ed25519Signer,
    });
    const fromPem = sealRecord(sampleInput(), {
      generatedAt: GENERATED_AT,
      signer: { alg: 'Ed25519', privateKey: privateKeyToPem(pair.privateKey) },
    });
    expect(fromPem).toEqual(fromBytes);
  });

  it('signs with HMAC-SHA256 as node createHmac does', () => {
    const record = sealRecord(sampleInput(), {
      generatedAt: GENERATED_AT,
      signer: { alg: 'HMAC-SHA256', key: 'shared-secret' },
    });
    const payload = `${record.manifest.content_digest}:${record.manifest.replay.cassette_digest}`;
    expect(record.manifest.signature).toEqual({
      alg: 'HMAC-SHA256',
      value: createHmac('sha256', 'shared-secret').update(payload).digest('hex'),
    });
  });

  it('refuses NaN and Infinity with a CanonicalError located in the input', () => {
    const input = sampleInput();
    (input.events[1]?.['usage'] as Record<string, number>)['input_tokens'] = Number.NaN;
    let caught: unknown;
    try {
      sealRecord(input, { generatedAt: GENERATED_AT });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CanonicalError);
    expect((caught as CanonicalError).code).toBe('CANONICAL_NON_FINITE_NUMBER');
    expect((caught as CanonicalError).pointer).toBe('/events/1/usage/input_tokens');
    expect((caught as CanonicalError).message).toBe(
      'expected a finite number, got NaN at /events/1/usage/input_tokens',
    );

    const badRun = sampleInput();
    badRun.run['cost'] = { usd: Infinity };
    try {
      sealRecord(badRun, { generatedAt: GENERATED_AT });
      expect.unreachable();
    } catch (err) {
      expect((err as CanonicalError).pointer).toBe('/run/cost/usd');
    }
  });

  it('lets a replay-key error through, naming the event', () => {
    const input = sampleInput();
    delete (input.events[2] as Record<string, unknown>)['tool_name'];
    try {
      sealRecord(input, { generatedAt: GENERATED_AT });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ReplayDigestError);
      expect((err as ReplayDigestError).eventIndex).toBe(2);
    }
  });

  it('refuses malformed input, options and signers with coded errors', () => {
    const ok = { generatedAt: GENERATED_AT };
    const withEvents = (events: unknown[]) => ({
      run: { run_id: RUN_ID },
      events: events as object[],
    });
    expect(codeOf(() => sealRecord(null as never, ok))).toBe('RECORD_INVALID');
    expect(codeOf(() => sealRecord({ run: [] as never, events: [] }, ok))).toBe('RECORD_INVALID');
    expect(codeOf(() => sealRecord({ run: { name: 'x' }, events: [] }, ok))).toBe('RECORD_INVALID');
    expect(codeOf(() => sealRecord({ run: { run_id: '' }, events: [] }, ok))).toBe(
      'RECORD_INVALID',
    );
    expect(codeOf(() => sealRecord({ run: { run_id: 'r' }, events: {} as never }, ok))).toBe(
      'RECORD_INVALID',
    );
    expect(codeOf(() => sealRecord(withEvents([null]), ok))).toBe('RECORD_INVALID');
    expect(codeOf(() => sealRecord(withEvents([{ seq: 1 }, { seq: 1 }]), ok))).toBe(
      'RECORD_INVALID',
    );
    expect(codeOf(() => sealRecord(withEvents([{ seq: -1 }]), ok))).toBe('RECORD_INVALID');
    expect(codeOf(() => sealRecord(withEvents([{ seq: 1.5 }]), ok))).toBe('RECORD_INVALID');
    expect(codeOf(() => sealRecord(withEvents([{ type: 'run' }]), ok))).toBe('RECORD_INVALID');
    expect(codeOf(() => sealRecord(withEvents([]), {} as never))).toBe('ARG_INVALID_TYPE');
    expect(codeOf(() => sealRecord(withEvents([]), { generatedAt: '' }))).toBe('ARG_INVALID_TYPE');
    const signed = (signer: unknown) => () =>
      sealRecord(withEvents([]), { generatedAt: GENERATED_AT, signer: signer as Signer });
    expect(codeOf(signed({ alg: 'RS256', key: 'k' }))).toBe('SIGNER_INVALID');
    expect(codeOf(signed({ alg: 'HMAC-SHA256', key: '' }))).toBe('SIGNER_INVALID');
    expect(codeOf(signed({ alg: 'HMAC-SHA256', key: 42 }))).toBe('SIGNER_INVALID');
    expect(codeOf(signed({ alg: 'Ed25519', privateKey: new Uint8Array(31) }))).toBe(
      'KEY_WRONG_LENGTH',
    );
    expect(codeOf(signed({ alg: 'Ed25519', privateKey: 'not pem' }))).toBe('KEY_PEM_MALFORMED');
    expect(codeOf(signed({ alg: 'Ed25519' }))).toBe('SIGNER_INVALID');
    expect(codeOf(signed('Ed25519'))).toBe('SIGNER_INVALID');
    try {
      signed({ alg: 'ed25519', privateKey: pair.privateKey })();
    } catch (err) {
      expect(err).toBeInstanceOf(SignError);
      expect((err as SignError).message).toBe(
        'expected signer.alg to be "Ed25519" or "HMAC-SHA256", got the string "ed25519"',
      );
    }
  });
});

describe('signRecord', () => {
  it('adds a signature to an unsigned record, recomputing nothing else', () => {
    const unsigned = sealRecord(sampleInput(), { generatedAt: GENERATED_AT });
    const signed = signRecord(unsigned, ed25519Signer);
    const direct = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: ed25519Signer });
    expect(signed).toEqual(direct);
    expect(JSON.stringify(signed)).toBe(JSON.stringify(direct));
    expect(unsigned.manifest.signed).toBe(false);
    expect('signature' in unsigned.manifest).toBe(false);
  });

  it('replaces an existing signature in place and keeps other manifest members', () => {
    const record = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: ed25519Signer });
    const withExtras = {
      ...record,
      manifest: { ...record.manifest, verify: 'npx @runback/verify record.json' },
    };
    const resigned = signRecord(withExtras, { alg: 'HMAC-SHA256', key: 'k' });
    expect(Object.keys(resigned.manifest)).toEqual([...Object.keys(record.manifest), 'verify']);
    expect(resigned.manifest.signature?.alg).toBe('HMAC-SHA256');
    expect(withExtras.manifest.signature?.alg).toBe('Ed25519');
    expect(resigned.events).toEqual(record.events);
  });

  it('signs the digests the manifest states, even wrong ones (sealRecord is what recomputes)', () => {
    const record = sealRecord(sampleInput(), { generatedAt: GENERATED_AT });
    const tampered = {
      ...record,
      manifest: { ...record.manifest, content_digest: '00'.repeat(32) },
    };
    const signed = signRecord(tampered, { alg: 'HMAC-SHA256', key: 'k' });
    expect(signed.manifest.content_digest).toBe('00'.repeat(32));
    expect(signed.manifest.signature?.value).toBe(
      createHmac('sha256', 'k')
        .update(`${'00'.repeat(32)}:${record.manifest.replay.cassette_digest}`)
        .digest('hex'),
    );
  });

  it('refuses a record without string digests', () => {
    const record = sealRecord(sampleInput(), { generatedAt: GENERATED_AT });
    expect(codeOf(() => signRecord(null as never, ed25519Signer))).toBe('RECORD_INVALID');
    expect(codeOf(() => signRecord({ ...record, manifest: null } as never, ed25519Signer))).toBe(
      'RECORD_INVALID',
    );
    expect(
      codeOf(() =>
        signRecord(
          { ...record, manifest: { ...record.manifest, replay: {} } } as never,
          ed25519Signer,
        ),
      ),
    ).toBe('RECORD_INVALID');
    expect(codeOf(() => signRecord(record, { alg: 'none' } as never))).toBe('SIGNER_INVALID');
  });
});

describe('buildManifest', () => {
  it('gives the manifest sealRecord writes for the same digests', () => {
    const record = sealRecord(sampleInput(), { generatedAt: GENERATED_AT, signer: ed25519Signer });
    const m = record.manifest;
    const built = buildManifest(
      {
        runId: m.run_id,
        generatedAt: m.generated_at,
        eventCount: m.event_count,
        contentDigest: m.content_digest,
        cassetteDigest: m.replay.cassette_digest,
        entryCount: m.replay.entry_count,
      },
      ed25519Signer,
    );
    expect(JSON.stringify(built)).toBe(JSON.stringify(m));
  });

  it('signs HMAC-SHA256 over "content:cassette", and is unsigned without a signer', () => {
    const facts = {
      runId: 'r',
      generatedAt: GENERATED_AT,
      eventCount: 0,
      contentDigest: 'aa',
      cassetteDigest: 'bb',
      entryCount: 0,
    };
    expect(buildManifest(facts, { alg: 'HMAC-SHA256', key: 'k' }).signature?.value).toBe(
      createHmac('sha256', 'k').update('aa:bb').digest('hex'),
    );
    const unsigned = buildManifest(facts);
    expect(unsigned.signed).toBe(false);
    expect('signature' in unsigned).toBe(false);
    expect(() => buildManifest(facts, { alg: 'RSA' } as unknown as Signer)).toThrow(SignError);
  });
});
