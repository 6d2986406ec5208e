// verifyStream gives verifyJson's result on every corpus file however the bytes are cut into
// chunks (one byte, odd sizes, one chunk), from an async iterable and from a web stream.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus, type CorpusCase } from '../../../test-support/corpus.js';
import { cassetteDigestsByReading } from '@runback/replay-digest';
import { verifyJson, verifyStream, type VerifyOptions, type VerifyResult } from '../src/index.js';
import { StreamCassette, StreamOrderError } from '../src/stream/stream-cassette.js';

const optionsOf = (t: CorpusCase['trust']): VerifyOptions => {
  const pem = (f: string): string => readFileSync(join(CORPUS_DIR, f), 'utf8');
  return {
    ...(t.pinned ? { pinned: t.pinned.map(pem) } : {}),
    ...(t.revoked ? { revoked: t.revoked.map(pem) } : {}),
    ...(t.hmac_key !== undefined ? { hmacKey: t.hmac_key } : {}),
  };
};

async function* chunked(
  bytes: Uint8Array,
  size: (k: number) => number,
): AsyncGenerator<Uint8Array> {
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const n = Math.max(1, size(k));
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

/** The parts of a result every call site must agree on (syntax-error wording may differ). */
const comparable = (r: VerifyResult) => ({
  verdict: r.verdict,
  checks: r.checks,
  codes: r.errors.map((e) => e.code),
  indexes: r.errors.map((e) => e.event_index),
  notes: r.notes.map((n) => n.code),
  messages: r.errors.filter((e) => !e.code.startsWith('JSON_')).map((e) => e.message),
});

const cases = loadCorpus();

describe('verifyStream', () => {
  for (const c of cases) {
    it(`${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]`, async () => {
      const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, c.file)));
      const options = optionsOf(c.trust);
      const expected = comparable(verifyJson(bytes, options));
      expect(expected.verdict).toBe(c.expected.verdict);
      for (const size of [() => bytes.length, () => 1, (k: number) => 7 + ((k * 131) % 977)]) {
        expect(comparable(await verifyStream(chunked(bytes, size), options))).toEqual(expected);
      }
      const web = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 100));
          controller.enqueue(bytes.subarray(100));
          controller.close();
        },
      });
      expect(comparable(await verifyStream(web, options))).toEqual(expected);
    });
  }

  it('agrees with verifyJson on arbitrary texts and any cuts', async () => {
    const base = readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json'), 'utf8');
    const text = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .tuple(fc.nat(base.length), fc.nat(base.length), fc.string({ maxLength: 4 }))
        .map(([a, b, s]) => base.slice(0, Math.min(a, b)) + s + base.slice(Math.max(a, b))),
      fc.constantFrom(
        '',
        '  ',
        '{}',
        '{"events":[]}',
        '{"events":{}}',
        '[1]',
        '{"a":1,"a":2}',
        '{"events":[1,]}',
        // A member whose value is missing: the piece is empty, the record a syntax error.
        '{"$schema":]}',
        '{"$schema": ,"events":[]}',
      ),
    );
    await fc.assert(
      fc.asyncProperty(text, fc.integer({ min: 1, max: 64 }), async (t, cut) => {
        const bytes = new TextEncoder().encode(t);
        const ours = await verifyStream(chunked(bytes, () => cut));
        const plain = verifyJson(bytes);
        expect(comparable(ours).verdict).toBe(plain.verdict);
        expect(ours.checks).toEqual(plain.checks);
        expect(ours.errors.map((e) => e.code)).toEqual(plain.errors.map((e) => e.code));
      }),
      { numRuns: 300 },
    );
  });

  it('reorders entries that arrive out of seq order within its budget', async () => {
    const bytes = readFileSync(join(CORPUS_DIR, 'tampered/duplicate-seq.json'));
    expect(comparable(await verifyStream(chunked(bytes, () => 64)))).toEqual(
      comparable(verifyJson(bytes)),
    );
  });

  it('fails the cassette with CASSETTE_OUT_OF_ORDER past its reorder budget, and agrees with verifyJson given room', async () => {
    // The last oracle call stored first, as a writer appending calls in completion order
    // might (the chain, which covers storage order, then fails; the cassette sorts by seq).
    const record = JSON.parse(
      readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json'), 'utf8'),
    ) as { events: { type: string }[] };
    const late = record.events.splice(6, 1)[0]!;
    expect(late.type).toBe('llm');
    record.events.splice(1, 0, late);
    const bytes = new TextEncoder().encode(JSON.stringify(record));
    const plain = verifyJson(bytes);
    expect(plain.checks.cassette).toBe(true);
    const tight = await verifyStream(
      chunked(bytes, () => 64),
      { reorderBudget: 0 },
    );
    expect(tight.checks.cassette).toBe(false);
    const cassetteErrors = tight.errors.filter((e) => e.check === 'cassette');
    expect(cassetteErrors.map((e) => e.code)).toEqual(['CASSETTE_OUT_OF_ORDER']);
    expect(cassetteErrors[0]?.message).toContain('reorderBudget');
    // Within the default budget, or with no limit, the stream sorts as verifyJson does.
    expect(comparable(await verifyStream(chunked(bytes, () => 64)))).toEqual(comparable(plain));
    const roomy = await verifyStream(
      chunked(bytes, () => 64),
      { reorderBudget: Infinity },
    );
    expect(comparable(roomy)).toEqual(comparable(plain));
    await expect(
      verifyStream(
        chunked(bytes, () => 64),
        { reorderBudget: -1 },
      ),
    ).rejects.toThrow(/reorderBudget/);
  });

  it('rejects chunks that are not bytes, and bad options', async () => {
    async function* strings(): AsyncGenerator<string> {
      yield '{}';
    }
    const r = await verifyStream(strings() as unknown as AsyncIterable<Uint8Array>);
    expect(r.verdict).toBe('invalid');
    await expect(
      verifyStream(
        chunked(new Uint8Array(0), () => 1),
        { pinned: ['nope'] },
      ),
    ).rejects.toThrow();
  });
});

describe('the stream cassette reorder buffer', () => {
  const event = (seq: number) => ({ seq, type: 'env', kind: 'now', key: 'now', output: seq });

  it('hashes entries in seq order whatever order they arrive in, within its budget', () => {
    const arrival = [0, 2, 1, 3, 5, 4];
    const events = arrival.map(event);
    const stream = new StreamCassette();
    events.forEach((e, i) => stream.add(e, i));
    expect(stream.digests()).toEqual(cassetteDigestsByReading(events));
  });

  it('refuses, rather than guesses, when an entry arrives after later ones were hashed', () => {
    const stream = new StreamCassette(10);
    [5, 6, 7, 8, 0].forEach((seq, i) => stream.add(event(seq), i));
    expect(() => stream.digests()).toThrow(StreamOrderError);
  });
});
