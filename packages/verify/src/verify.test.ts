import { sealRecord } from '@runback/sign';
import { describe, expect, it } from 'vitest';
import {
  GENERATED_AT,
  HMAC_KEY,
  KEYS,
  PEM,
  loanRun,
  sealedLoanRecord,
  viaJson,
} from '../test/support/fixtures.js';
import { verify, verifyJson } from './verify.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pinned = { pinned: [PEM.current] };

describe('verify: verdicts', () => {
  it('is valid for an intact record signed by a pinned key', () => {
    const result = verify(viaJson(sealedLoanRecord()), pinned);
    expect(result).toMatchObject({
      verdict: 'valid',
      integrity: true,
      valid: true,
      checks: {
        schema: true,
        consistent: true,
        chain: true,
        digest: true,
        cassette: true,
        signature: 'valid',
      },
      errors: [],
      notes: [],
    });
    expect(result.signer?.alg).toBe('Ed25519');
    expect(result.signer?.key_id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is unverified when the key is not pinned, and says so', () => {
    const result = verify(viaJson(sealedLoanRecord()));
    expect(result.verdict).toBe('unverified');
    expect(result.checks.signature).toBe('valid-unpinned');
    expect(result.notes[0]?.code).toBe('SIGNATURE_UNPINNED');
  });

  it('is valid for a record signed by a rotated-out key that is still pinned', () => {
    const record = viaJson(
      sealedLoanRecord({ alg: 'Ed25519', privateKey: KEYS.previous.privateKey }),
    );
    expect(verify(record, { pinned: [PEM.current, PEM.previous] }).verdict).toBe('valid');
    expect(verify(record, pinned).verdict).toBe('unverified');
  });

  it('is invalid when the signer is revoked, even if pinned', () => {
    const result = verify(viaJson(sealedLoanRecord()), {
      pinned: [PEM.current],
      revoked: [PEM.current],
    });
    expect(result.verdict).toBe('invalid');
    expect(result.integrity).toBe(true);
    expect(result.checks.signature).toBe('revoked');
    expect(result.errors.map((e) => e.code)).toEqual(['SIGNATURE_REVOKED']);
  });

  it('handles HMAC records: valid with the key, no-key without, invalid with a wrong key', () => {
    const record = viaJson(sealedLoanRecord({ alg: 'HMAC-SHA256', key: HMAC_KEY }));
    expect(verify(record, { hmacKey: HMAC_KEY }).verdict).toBe('valid');
    expect(verify(record).checks.signature).toBe('no-key');
    expect(verify(record).verdict).toBe('unverified');
    expect(verify(record, { hmacKey: new TextEncoder().encode(HMAC_KEY) }).verdict).toBe('valid');
    expect(verify(record, { hmacKey: 'wrong' })).toMatchObject({
      verdict: 'invalid',
      checks: { signature: 'invalid' },
    });
  });

  it('accepts an HMAC record signed with any of several keys, the result shape unchanged', () => {
    const text = JSON.stringify(sealedLoanRecord({ alg: 'HMAC-SHA256', key: 'previous-secret' }));
    const withBoth = verifyJson(text, { hmacKey: [HMAC_KEY, 'previous-secret'] });
    expect(withBoth).toEqual(verifyJson(text, { hmacKey: 'previous-secret' }));
    expect(withBoth.verdict).toBe('valid');
    const currentOnly = verifyJson(text, { hmacKey: [HMAC_KEY] });
    expect(currentOnly).toEqual(verifyJson(text, { hmacKey: HMAC_KEY }));
    expect(currentOnly).toMatchObject({ verdict: 'invalid', checks: { signature: 'invalid' } });
  });

  it('is unverified for an intact unsigned record', () => {
    const result = verify(viaJson(sealedLoanRecord(null)), pinned);
    expect(result).toMatchObject({
      verdict: 'unverified',
      integrity: true,
      checks: { signature: 'unsigned' },
    });
  });

  it('accepts the legacy schema name', () => {
    const record = viaJson(sealedLoanRecord()) as Json;
    record['$schema'] = 'runback.cassette/v1';
    expect(verify(record, pinned).verdict).toBe('valid');
  });

  it('is unverified when an attacker re-seals an edited record with their own key', () => {
    const input = loanRun();
    (input.events[2] as Json)['output'] = { score: 512, bureau: 'Equifax' };
    const forged = viaJson(
      sealRecord(input, {
        generatedAt: GENERATED_AT,
        signer: { alg: 'Ed25519', privateKey: KEYS.attacker.privateKey },
      }),
    );
    const result = verify(forged, pinned);
    expect(result.integrity).toBe(true);
    expect(result.verdict).toBe('unverified');
    expect(result.checks.signature).toBe('valid-unpinned');
  });

  it('is invalid when an edited record is re-chained but the old signature kept', () => {
    const original = viaJson(sealedLoanRecord()) as Json;
    const input = loanRun();
    (input.events[2] as Json)['output'] = { score: 512, bureau: 'Equifax' };
    const rechained = viaJson(sealRecord(input, { generatedAt: GENERATED_AT })) as Json;
    rechained['manifest']['signed'] = true;
    rechained['manifest']['signature'] = original['manifest']['signature'];
    const result = verify(rechained, pinned);
    expect(result.integrity).toBe(true);
    expect(result).toMatchObject({ verdict: 'invalid', checks: { signature: 'invalid' } });
  });
});

describe('verify: each check names what broke', () => {
  const tamper = (edit: (r: Json) => void) => {
    const record = viaJson(sealedLoanRecord()) as Json;
    edit(record);
    return verify(record, pinned);
  };

  it('chain: an edited event is reported at its index, and the digests fail with it', () => {
    const result = tamper((r) => (r['events'][2]['output']['score'] = 800));
    expect(result.verdict).toBe('invalid');
    expect(result.checks).toMatchObject({
      schema: true,
      consistent: true,
      chain: false,
      digest: false,
      cassette: false,
      signature: 'valid',
    });
    expect(result.errors.find((e) => e.check === 'chain')).toMatchObject({
      code: 'CHAIN_HASH_MISMATCH',
      event_index: 2,
    });
  });

  it('chain: reordered events break the chain at the first moved one', () => {
    const result = tamper((r) => {
      const events = r['events'] as unknown[];
      [events[3], events[4]] = [events[4], events[3]];
    });
    expect(result.checks.chain).toBe(false);
    expect(result.errors.find((e) => e.check === 'chain')?.event_index).toBe(3);
    // Same multiset of events in seq order: the cassette is untouched.
    expect(result.checks.cassette).toBe(true);
  });

  it('consistent: a summary that contradicts the events is rejected however intact the chain', () => {
    const result = tamper((r) => (r['run']['status'] = 'error'));
    expect(result.checks).toMatchObject({
      consistent: false,
      chain: true,
      digest: true,
      cassette: true,
      signature: 'valid',
    });
    expect(result.verdict).toBe('invalid');
    expect(result.errors[0]).toMatchObject({
      check: 'consistent',
      code: 'CONSISTENT_RUN_SUMMARY',
      event_index: 6,
    });
    expect(result.errors[0]?.message).toBe(
      'expected run.status to be "success" as the run end event says, got "error"',
    );
  });

  it('consistent: run ids, event count, output, times and names', () => {
    expect(
      tamper((r) => (r['manifest']['run_id'] = 'run_other')).errors.map((e) => e.code),
    ).toContain('CONSISTENT_RUN_ID');
    expect(tamper((r) => (r['manifest']['event_count'] = 6)).errors.map((e) => e.code)).toEqual([
      'CONSISTENT_EVENT_COUNT',
    ]);
    expect(tamper((r) => (r['run']['output'] = { decision: 'decline' })).checks.consistent).toBe(
      false,
    );
    expect(
      tamper(
        (r) =>
          (r['run']['output'] = {
            reason: 'score 742 above threshold 700',
            amount: 25000,
            decision: 'approve',
          }),
      ).checks.consistent,
    ).toBe(true);
    expect(
      tamper((r) => (r['run']['started_at'] = '2026-06-14T02:47:10.000Z')).checks.consistent,
    ).toBe(false);
    expect(
      tamper((r) => (r['run']['ended_at'] = '2026-06-14T02:47:19.000Z')).checks.consistent,
    ).toBe(false);
    expect(tamper((r) => (r['run']['name'] = 'other')).checks.consistent).toBe(false);
    expect(tamper((r) => (r['run']['error'] = { name: 'E', message: 'm' })).checks.consistent).toBe(
      false,
    );
    expect(tamper((r) => delete r['run']['output']).checks.consistent).toBe(true);
  });

  it('digest and cassette: manifest digests and counts must match', () => {
    expect(tamper((r) => (r['manifest']['content_digest'] = '0'.repeat(64))).checks).toMatchObject({
      digest: false,
      signature: 'invalid',
    });
    expect(
      tamper((r) => (r['manifest']['replay']['cassette_digest'] = '0'.repeat(64))).checks,
    ).toMatchObject({ cassette: false, signature: 'invalid' });
    const count = tamper((r) => (r['manifest']['replay']['entry_count'] = 9));
    expect(count.checks).toMatchObject({ cassette: false, signature: 'valid' });
    expect(count.errors[0]?.code).toBe('CASSETTE_ENTRY_COUNT');
    expect(tamper((r) => (r['manifest']['algorithm'] = 'sha1-chain')).errors[0]?.code).toBe(
      'DIGEST_UNSUPPORTED_ALGORITHM',
    );
  });

  it('schema: shape problems are schema failures, not crashes', () => {
    expect(tamper((r) => (r['$schema'] = 'runback.audit/v3')).errors[0]).toMatchObject({
      check: 'schema',
      code: 'SCHEMA_UNKNOWN',
    });
    expect(tamper((r) => (r['events'][1]['schema_version'] = 2)).errors[0]).toMatchObject({
      check: 'schema',
      event_index: 1,
    });
    expect(tamper((r) => (r['events'] = {})).checks).toMatchObject({
      schema: false,
      chain: false,
      cassette: false,
    });
  });

  it('signature: malformed values and unknown algorithms are invalid', () => {
    expect(
      tamper(
        (r) =>
          (r['manifest']['signature']['value'] = r['manifest']['signature']['value'].toUpperCase()),
      ).checks.signature,
    ).toBe('invalid');
    expect(tamper((r) => (r['manifest']['signature']['alg'] = 'RSA')).checks.signature).toBe(
      'invalid',
    );
    expect(tamper((r) => (r['manifest']['signed'] = false)).checks.signature).toBe('unsigned');
  });
});

describe('verify: never throws', () => {
  it('returns invalid for anything that is not a record', () => {
    for (const input of [
      null,
      undefined,
      3,
      'x',
      [],
      [1],
      {},
      { $schema: 'runback.audit/v2' },
      { events: [null, 1, 'x'] },
    ]) {
      const result = verify(input);
      expect(result.verdict).toBe('invalid');
      expect(result.checks.schema).toBe(false);
    }
  });

  it('survives hostile objects', () => {
    const record = viaJson(sealedLoanRecord()) as Json;
    Object.defineProperty(record['events'][0], 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('getter');
      },
    });
    const result = verify(record, pinned);
    expect(result.verdict).toBe('invalid');
    const cyclic = viaJson(sealedLoanRecord()) as Json;
    cyclic['events'][1]['request']['self'] = cyclic['events'][1];
    expect(verify(cyclic, pinned).verdict).toBe('invalid');
    const nonFinite = viaJson(sealedLoanRecord()) as Json;
    nonFinite['events'][2]['output']['score'] = NaN;
    expect(verify(nonFinite, pinned).errors.find((e) => e.check === 'chain')?.code).toBe(
      'CHAIN_NOT_HASHABLE',
    );
  });

  it('throws a TypeError for malformed options', () => {
    expect(() => verify({}, { pinned: ['not a key'] })).toThrow(TypeError);
  });
});

describe('verifyJson', () => {
  const text = JSON.stringify(sealedLoanRecord(), null, 2);

  it('verifies text and bytes alike', () => {
    expect(verifyJson(text, pinned).verdict).toBe('valid');
    expect(verifyJson(new TextEncoder().encode(text), pinned).verdict).toBe('valid');
    expect(
      verifyJson(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]), pinned)
        .verdict,
    ).toBe('valid');
  });

  it('rejects duplicate members, deep nesting, bad UTF-8 and truncation as schema errors', () => {
    const dup = text.replace(
      '"name": "loan-approval-agent",',
      '"name": "loan-approval-agent", "name": "other",',
    );
    expect(dup).not.toBe(text);
    const cases: [string | Uint8Array, string][] = [
      [dup, 'JSON_DUPLICATE_MEMBER'],
      ['['.repeat(600) + ']'.repeat(600), 'JSON_TOO_DEEP'],
      [new Uint8Array([0x7b, 0xff, 0x7d]), 'JSON_INVALID_UTF8'],
      [text.slice(0, text.length / 2), 'JSON_SYNTAX'],
      ['', 'JSON_EMPTY'],
      ['{"a": 1e400}', 'JSON_NUMBER_OUT_OF_RANGE'],
    ];
    for (const [input, code] of cases) {
      const result = verifyJson(input, pinned);
      expect(result).toMatchObject({
        verdict: 'invalid',
        integrity: false,
        checks: { schema: false, signature: 'unsigned' },
      });
      expect(result.errors[0]).toMatchObject({ check: 'schema', code });
    }
  });

  it('hashes __proto__ members and lone surrogates as data', () => {
    const input = loanRun();
    (input.events[2] as Json)['output'] = JSON.parse(
      '{"__proto__": {"score": 1}, "note": "\\ud800"}',
    );
    const record = sealRecord(input, {
      generatedAt: GENERATED_AT,
      signer: { alg: 'Ed25519', privateKey: KEYS.current.privateKey },
    });
    const json = JSON.stringify(record);
    expect(json).toContain('"__proto__"');
    expect(verifyJson(json, pinned).verdict).toBe('valid');
    expect(verifyJson(json.replace('"score":1', '"score":2'), pinned).verdict).toBe('invalid');
  });
});
