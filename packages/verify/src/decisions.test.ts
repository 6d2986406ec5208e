// The format decisions that changed verdicts (docs/spec.md §4.1, §4.2, §5.1, §5.2, §5.5, §6):
// each test here failed before its rule was implemented.
import { cassetteDigest } from '@runback/replay-digest';
import { sealRecord, signRecord, type SealedRecord } from '@runback/sign';
import { describe, expect, it } from 'vitest';
import { GENERATED_AT, KEYS, PEM, loanRun, viaJson } from '../test/support/fixtures.js';
import { verify, verifyJson } from './verify.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const signer = { alg: 'Ed25519', privateKey: KEYS.current.privateKey } as const;
const pinned = { pinned: [PEM.current] };

/** The loan run with `edit` applied to its (unsealed) events and summary, sealed and signed. */
function sealedWith(edit: (run: Json, events: Json[]) => void): Json {
  const input = loanRun();
  edit(input.run, input.events);
  return viaJson(sealRecord(input, { generatedAt: GENERATED_AT, signer }));
}

/** Re-signs a record after its manifest was edited. */
function resigned(record: Json): Json {
  return viaJson(signRecord(record as SealedRecord, signer));
}

const codes = (r: { errors: readonly { code: string }[] }): string[] => r.errors.map((e) => e.code);

describe('ts_end may be null', () => {
  it('on run-start and env events, and on a span that never closed', () => {
    const record = sealedWith((_run, events) => {
      for (const event of events) if (event['type'] === 'env') event['ts_end'] = null;
      (events[0] as Json)['ts_end'] = null;
      (events[2] as Json)['ts_end'] = null;
    });
    expect(verify(record, pinned)).toMatchObject({ verdict: 'valid', errors: [] });
  });

  it('but not empty or of another type', () => {
    for (const bad of ['', 0, false, {}]) {
      const record = sealedWith((_run, events) => void ((events[1] as Json)['ts_end'] = bad));
      const result = verify(record, pinned);
      expect(result.checks.schema).toBe(false);
      expect(result.errors[0]?.message).toMatch(/ts_end to be a non-empty string or null/);
    }
  });
});

describe('two readings of an entry output', () => {
  /** A tool that returned nothing (no output member, error null) and a failed model call that also kept a response. */
  const divergent = (_run: Json, events: Json[]): void => {
    delete (events[2] as Json)['output'];
    (events[2] as Json)['error'] = null;
    (events[5] as Json)['error'] = { name: 'RateLimitError', message: '429' };
  };

  it('writers emit the published reading, which verifies with a note', () => {
    const record = sealedWith(divergent);
    const events = record['events'] as unknown[];
    expect(record['manifest'].replay.cassette_digest).toBe(
      cassetteDigest(events, undefined, 'published').digest,
    );
    const result = verify(record, pinned);
    expect(result.verdict).toBe('valid');
    expect(result.notes.map((n) => n.code)).toContain('CASSETTE_READING_PUBLISHED');
  });

  it('the seed reading (§4.1) verifies too, without the note', () => {
    const record = sealedWith(divergent);
    record['manifest'].replay.cassette_digest = cassetteDigest(
      record['events'] as unknown[],
      undefined,
      'seed',
    ).digest;
    const result = verify(resigned(record), pinned);
    expect(result.verdict).toBe('valid');
    expect(result.notes.map((n) => n.code)).not.toContain('CASSETTE_READING_PUBLISHED');
  });

  it('no note when the readings agree, and a digest of neither fails', () => {
    const plain = verify(
      sealedWith(() => undefined),
      pinned,
    );
    expect(plain.notes).toEqual([]);
    const record = sealedWith(divergent);
    record['manifest'].replay.cassette_digest = 'a'.repeat(64);
    const result = verify(resigned(record), pinned);
    expect(result.checks.cassette).toBe(false);
    expect(codes(result)).toEqual(['CASSETTE_MISMATCH']);
    expect(result.errors[0]?.message).toMatch(/under the published output reading/);
  });
});

describe('entry_count is required', () => {
  it('a manifest without it, or with a non-integer, fails the cassette check', () => {
    for (const count of [undefined, '4', 4.5, null]) {
      const record = sealedWith(() => undefined);
      if (count === undefined) delete record['manifest'].replay.entry_count;
      else record['manifest'].replay.entry_count = count;
      const result = verify(resigned(record), pinned);
      expect(result.verdict).toBe('invalid');
      expect(codes(result)).toEqual(['CASSETTE_ENTRY_COUNT']);
    }
  });
});

describe('summary times compare as instants', () => {
  const withSummary = (member: string, value: unknown): Json => {
    const record = sealedWith(() => undefined);
    record['run'][member] = value;
    return record;
  };

  it('an offset, dropped milliseconds or extra digits denote the same instant', () => {
    for (const [member, value] of [
      ['ended_at', '2026-06-14T02:47:13.950+00:00'],
      ['ended_at', '2026-06-14T04:47:13.950+02:00'],
      ['ended_at', '2026-06-14T02:47:13.950123Z'],
      ['started_at', '2026-06-14T02:47:11+00:00'],
      ['started_at', '2026-06-13T21:17:11.000-05:30'],
    ] as const) {
      expect(verify(withSummary(member, value), pinned).checks.consistent, value).toBe(true);
    }
  });

  it('another instant, no zone or an unparseable time fails', () => {
    for (const value of [
      '2026-06-14T02:47:13.951Z',
      '2026-06-14T02:47:13.950',
      '2026-06-14 02:47:13.950Z',
      'yesterday',
      '2026-02-30T02:47:13.950Z',
      '2026-06-14T02:47:13.950+24:00',
      42,
    ]) {
      const result = verify(withSummary('ended_at', value), pinned);
      expect(result.checks.consistent, String(value)).toBe(false);
      expect(codes(result)).toEqual(['CONSISTENT_RUN_SUMMARY']);
    }
  });

  it("ended_at is compared with the end event's ts_start when its ts_end is null", () => {
    const record = sealedWith((run, events) => {
      const end = events[events.length - 1] as Json;
      end['ts_end'] = null;
      run['ended_at'] = end['ts_start'];
    });
    expect(verify(record, pinned).verdict).toBe('valid');
  });
});

describe('an empty keep is no allowlist', () => {
  it('keys the input whole, as the published implementation does', () => {
    const projected = sealedWith((_run, events) => {
      (events[2] as Json)['key_projection'] = { keep: [] };
    });
    const bare = sealedWith(() => undefined);
    expect(projected['manifest'].replay.cassette_digest).toBe(
      bare['manifest'].replay.cassette_digest,
    );
    expect(verify(projected, pinned).verdict).toBe('valid');
  });
});

describe('verify(object) reads JSON data only', () => {
  const record = (): Json => sealedWith(() => undefined);

  it('rejects a toJSON that shows the signed value while the object holds another', () => {
    const forged = record();
    const event = forged['events'][1] as Json;
    const signed = event['request'];
    event['request'] = { system: 'approve everything', toJSON: () => signed };
    const result = verify(forged, pinned);
    expect(result.verdict).toBe('invalid');
    expect(codes(result)).toEqual(['VERIFY_NOT_JSON_DATA']);
    expect(result.errors[0]?.message).toMatch(
      /toJSON method.*\/events\/1\/request\/toJSON|\/events\/1\/request\/toJSON/,
    );
  });

  it('rejects accessors, class instances, symbols, functions, hidden members and sparse arrays', () => {
    const cases: ((r: Json) => void)[] = [
      (r) => Object.defineProperty(r['events'][0], 'seq', { get: () => 0, enumerable: true }),
      (r) => void (r['run']['started_at'] = new Date()),
      (r) => void (r['manifest'][Symbol('x') as unknown as string] = 1),
      (r) => void (r['run']['name'] = () => 'loan'),
      (r) => Object.defineProperty(r['run'], 'hidden', { value: 1, enumerable: false }),
      (r) => void (r['events'][0]['input'] = [1, , 3]), // eslint-disable-line no-sparse-arrays
      (r) => void (r['events'][0]['input'] = new Map()),
      (r) => void (r['events'][0]['input'] = 10n),
    ];
    for (const edit of cases) {
      const r = record();
      edit(r);
      const result = verify(r, pinned);
      expect(result.verdict, edit.toString()).toBe('invalid');
      expect(codes(result), edit.toString()).toEqual(['VERIFY_NOT_JSON_DATA']);
    }
  });

  it('reads a Proxy through its descriptors, never its get trap', () => {
    const r = record();
    const run = r['run'] as Json;
    r['run'] = new Proxy(run, { get: (t, k) => (k === 'status' ? 'error' : t[k as string]) });
    expect(verify(r, pinned).verdict).toBe('valid');
  });

  it('accepts what JSON.parse returns, own __proto__ members and null-prototype objects included', () => {
    const text = JSON.stringify(record());
    expect(verify(JSON.parse(text), pinned).verdict).toBe('valid');
    const nullProto = Object.assign(Object.create(null) as Json, JSON.parse(text) as Json);
    expect(verify(nullProto, pinned).verdict).toBe('valid');
    const proto = sealedWith((_run, events) => {
      (events[2] as Json)['input'] = JSON.parse('{"__proto__":{"admin":true}}');
    });
    expect(verify(proto, pinned).verdict).toBe('valid');
    expect(verifyJson(JSON.stringify(proto), pinned).verdict).toBe('valid');
  });
});

describe('a second _hash member right after the first', () => {
  it('is a duplicate member (schema false), also where the fast path reads the text', () => {
    const text = JSON.stringify(sealedWith(() => undefined));
    const at = text.indexOf('"_hash":"', text.indexOf('"events"'));
    const end = text.indexOf('"', at + 9) + 1;
    for (const second of ['"_hash":"00"', text.slice(at, end)]) {
      const dup = text.slice(0, end) + ',' + second + text.slice(end);
      const result = verifyJson(dup, pinned);
      expect(result.checks.schema).toBe(false);
      expect(codes(result)).toEqual(['JSON_DUPLICATE_MEMBER']);
    }
  });
});
