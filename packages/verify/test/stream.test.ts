// verifyStream gives verifyJson's result on every corpus file however the bytes are cut into
// chunks (one byte, odd sizes, one chunk), from an async iterable and from a web stream.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, corpusOptions, loadCorpus } from '../../../test-support/corpus.js';
import { cassetteDigestsByReading } from '@runback/replay-digest';
import { verifyJson, verifyStream } from '../src/index.js';
import { StreamCassette, StreamOrderError } from '../src/stream/stream-cassette.js';
import { verifyStreamWith } from '../src/stream/verify-stream.js';
import { chunked, comparable } from './support/streamed.js';

const optionsOf = corpusOptions;

const cases = loadCorpus();
/** Every stream read event by event, not collected and verified whole (wholeBytes). */
const EVENT_BY_EVENT = { wholeBytes: 0 } as const;

/**
 * The signed corpus record with `spaces` bytes of whitespace after its first brace, its pinned
 * key, and verifyJson's (valid) result on it.
 */
function paddedRecord(spaces: number) {
  const text = readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json'), 'utf8');
  const bytes = new TextEncoder().encode(`{${' '.repeat(spaces)}${text.slice(1)}`);
  const pinned = [readFileSync(join(CORPUS_DIR, 'keys/producer.pub.pem'), 'utf8')];
  const expected = comparable(verifyJson(bytes, { pinned }));
  expect(expected.verdict).toBe('valid');
  return { bytes, pinned, expected };
}

describe('verifyStream', () => {
  for (const c of cases) {
    it(`${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]`, async () => {
      const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, c.file)));
      const options = optionsOf(c.trust);
      const expected = comparable(verifyJson(bytes, options));
      expect(expected.verdict).toBe(c.expected.verdict);
      for (const size of [() => bytes.length, () => 1, (k: number) => 7 + ((k * 131) % 977)]) {
        expect(
          comparable(await verifyStream(chunked(bytes, size), { ...options, ...EVENT_BY_EVENT })),
        ).toEqual(expected);
      }
      // The batches read by the pass in JavaScript alone (verifyStream's are in WebAssembly
      // where their text is ASCII).
      for (const size of [() => bytes.length, (k: number) => 7 + ((k * 131) % 977)]) {
        const streamed = verifyStreamWith(
          chunked(bytes, size),
          { ...options, ...EVENT_BY_EVENT },
          'canonical-js',
        );
        expect(comparable(await streamed)).toEqual(expected);
      }
      const web = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 100));
          controller.enqueue(bytes.subarray(100));
          controller.close();
        },
      });
      expect(comparable(await verifyStream(web, { ...options, ...EVENT_BY_EVENT }))).toEqual(
        expected,
      );
      // By default a stream this short is verified whole, exactly as verifyJson verifies it.
      expect(
        await verifyStream(
          chunked(bytes, (k) => 7 + ((k * 131) % 977)),
          options,
        ),
      ).toEqual(verifyJson(bytes, options));
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
        const ours = await verifyStream(
          chunked(bytes, () => cut),
          EVENT_BY_EVENT,
        );
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
    expect(
      comparable(
        await verifyStream(
          chunked(bytes, () => 64),
          EVENT_BY_EVENT,
        ),
      ),
    ).toEqual(comparable(verifyJson(bytes)));
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
      { reorderBudget: 0, ...EVENT_BY_EVENT },
    );
    expect(tight.checks.cassette).toBe(false);
    const cassetteErrors = tight.errors.filter((e) => e.check === 'cassette');
    expect(cassetteErrors.map((e) => e.code)).toEqual(['CASSETTE_OUT_OF_ORDER']);
    expect(cassetteErrors[0]?.message).toContain('reorderBudget');
    // Within the default budget, or with no limit, the stream sorts as verifyJson does.
    expect(
      comparable(
        await verifyStream(
          chunked(bytes, () => 64),
          EVENT_BY_EVENT,
        ),
      ),
    ).toEqual(comparable(plain));
    const roomy = await verifyStream(
      chunked(bytes, () => 64),
      { reorderBudget: Infinity, ...EVENT_BY_EVENT },
    );
    expect(comparable(roomy)).toEqual(comparable(plain));
    // The budget binds only a stream read event by event: one held whole is sorted as
    // verifyJson sorts it, and one past wholeBytes is read event by event from its start.
    expect(
      comparable(
        await verifyStream(
          chunked(bytes, () => 64),
          { reorderBudget: 0 },
        ),
      ),
    ).toEqual(comparable(plain));
    const past = await verifyStream(
      chunked(bytes, () => 64),
      {
        reorderBudget: 0,
        wholeBytes: 100,
      },
    );
    expect(past.errors.filter((e) => e.check === 'cassette').map((e) => e.code)).toEqual([
      'CASSETTE_OUT_OF_ORDER',
    ]);
    await expect(
      verifyStream(
        chunked(bytes, () => 64),
        { reorderBudget: -1 },
      ),
    ).rejects.toThrow(/reorderBudget/);
  });

  it('a stream longer than wholeBytes is read event by event from its first byte, with the same result', async () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json')));
    const pinned = [readFileSync(join(CORPUS_DIR, 'keys/producer.pub.pem'), 'utf8')];
    const expected = comparable(verifyJson(bytes, { pinned }));
    expect(expected.verdict).toBe('valid');
    // Limits before, inside and after the first chunks, and the whole length (held whole).
    for (const wholeBytes of [1, 100, 1000, bytes.length - 1, bytes.length]) {
      for (const size of [() => 1, (k: number) => 7 + ((k * 131) % 977), () => bytes.length]) {
        const r = await verifyStream(chunked(bytes, size), { pinned, wholeBytes });
        expect(comparable(r), `wholeBytes ${wholeBytes}`).toEqual(expected);
      }
    }
  });

  it('copies held chunks, so a source that refills one buffer between chunks is read right', async () => {
    const bytes = new Uint8Array(readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json')));
    async function* refilled(): AsyncGenerator<Uint8Array> {
      const buffer = new Uint8Array(97);
      for (let at = 0; at < bytes.length; at += buffer.length) {
        const piece = bytes.subarray(at, at + buffer.length);
        buffer.set(piece);
        yield buffer.subarray(0, piece.length);
      }
    }
    for (const wholeBytes of [undefined, 500]) {
      expect(comparable(await verifyStream(refilled(), { wholeBytes }))).toEqual(
        comparable(verifyJson(bytes)),
      );
    }
  });

  it('holds a stream past 8 MiB in one buffer, copying each chunk, refilled or not', async () => {
    // Past the bytes held as copies of their chunks: the rest is copied into one buffer.
    const { bytes, pinned, expected } = paddedRecord(9 << 20);
    async function* refilled(): AsyncGenerator<Uint8Array> {
      const buffer = new Uint8Array((1 << 20) + 13);
      for (let at = 0; at < bytes.length; at += buffer.length) {
        const piece = bytes.subarray(at, at + buffer.length);
        buffer.set(piece);
        yield buffer.subarray(0, piece.length);
        buffer.fill(0x7b);
      }
    }
    // Held whole; and over a limit met after the buffer was made, then read event by event.
    for (const wholeBytes of [undefined, bytes.length, 10 << 20]) {
      for (const source of [refilled, () => chunked(bytes, (k) => (1 << 19) + k)]) {
        expect(comparable(await verifyStream(source(), { pinned, wholeBytes }))).toEqual(expected);
      }
    }
  });

  it('holds a stream longer than 64 MiB whole when wholeBytes allows it (Infinity)', async () => {
    // Past the held buffer's first size, so that it grows.
    const { bytes, pinned, expected } = paddedRecord(70 << 20);
    const held = await verifyStream(
      chunked(bytes, () => 4 << 20),
      {
        pinned,
        wholeBytes: Infinity,
      },
    );
    expect(comparable(held)).toEqual(expected);
  });

  it('rejects chunks that are not bytes, and bad options', async () => {
    for (const wholeBytes of [-1, Number.NaN, '1' as unknown as number]) {
      await expect(
        verifyStream(
          chunked(new Uint8Array(0), () => 1),
          { wholeBytes },
        ),
      ).rejects.toThrow(/options\.wholeBytes/);
    }
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
  it('reports the first malformed entry in seq order when several are let go at once', async () => {
    // Two env entries that have no oracle entry (kind 5), held (they count no characters)
    // until the next entry's text passes a budget of 0, and then let go together.
    const record = JSON.parse(
      readFileSync(join(CORPUS_DIR, 'valid/ed25519-signed.json'), 'utf8'),
    ) as { events: { type: string; kind?: unknown }[] };
    for (const at of [3, 4]) {
      expect(record.events[at]?.type).toBe('env');
      record.events[at]!.kind = 5;
    }
    const bytes = new TextEncoder().encode(JSON.stringify(record));
    const plain = verifyJson(bytes);
    const cassette = plain.errors.filter((e) => e.check === 'cassette');
    expect(cassette.map((e) => e.event_index)).toEqual([3]);
    const tight = await verifyStream(
      chunked(bytes, () => 64),
      { reorderBudget: 0, ...EVENT_BY_EVENT },
    );
    expect(comparable(tight)).toEqual(comparable(plain));
  });

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
