// verifyStream reads each chunk's events as one batch, canonicalized and hashed from the text
// onto the chain head the stream has reached (src/stream/batch-reader.ts). These tests write
// records' events in any member order, with whitespace, escapes and numbers in non-canonical
// forms, with strings that hold quotes, backslashes and multi-byte characters, cut the bytes
// anywhere (inside strings, escapes and UTF-8 sequences), and spoil single events: the stream
// must give verifyJson's result every time, with the batches read by the pass in WebAssembly
// (where their text is ASCII: the second record) and by the pass in JavaScript alone.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';
import { verifyJson, verifyStream, type VerifyResult } from '../src/index.js';
import { WasmPass } from '../src/fast-path/wasm-pass.js';
import { verifyStreamWith } from '../src/stream/verify-stream.js';
import { GENERATED_AT, loanRun } from './support/fixtures.js';
import { chunked, comparable } from './support/streamed.js';
import {
  randomOf,
  shuffled,
  treeFromValue,
  writeJson,
  type Random,
} from './support/json-writer.js';

const key = generateEd25519KeyPair(new Uint8Array(32).fill(9));
const options = { pinned: [publicKeyToPem(key.publicKey)] };

/** Strings that stress the splitter: quotes, backslashes, escapes, multi-byte characters. */
const TRICKY = ['"', '\\', '\\"', '"\\', '\\\\"', 'é', '😀', '\u2028', '€uro', '\n\t', '{[', ']}'];
/** The same without characters past ASCII: text the pass in WebAssembly reads. */
const TRICKY_ASCII = ['"', '\\', '\\"', '"\\', '\\\\"', '\u0001', '/', '\n\t', '{[', ']}', '~'];

/**
 * The loan run with `copies` more reasoning events carrying tricky strings (so a record spans
 * many chunks), sealed and signed: a valid record, events as JSON data.
 */
function sealedRecord(
  copies: number,
  tricky: readonly string[],
  nameOf = (k: number): string => tricky[k % tricky.length] as string,
): Record<string, unknown> & { events: unknown[] } {
  const { run, events } = loanRun();
  const end = events.pop() as Record<string, unknown>;
  const base = events[4] as Record<string, unknown>;
  for (let k = 0; k < copies; k++) {
    events.push({
      ...base,
      seq: events.length,
      span_id: `x${events.length}`,
      text: tricky.slice(0, 1 + (k % tricky.length)).join(' '),
      detail: {
        [nameOf(k)]: [k, -k / 8, (tricky[5] as string).repeat(k % 5)],
      },
    });
  }
  events.push({ ...end, seq: events.length });
  const record = sealRecord(
    { run, events },
    { generatedAt: GENERATED_AT, signer: { alg: 'Ed25519', privateKey: key.privateKey } },
  );
  return JSON.parse(JSON.stringify(record)) as Record<string, unknown> & { events: unknown[] };
}

/** An event written in any member order, with non-canonical tokens at `rate`. */
const written =
  (random: Random, rate: number) =>
  (value: unknown): string =>
    writeJson(shuffled(treeFromValue(value), random), rate, random);

async function expectAgreement(text: string, sizes: readonly number[]): Promise<VerifyResult> {
  const bytes = new TextEncoder().encode(text);
  const expected = verifyJson(bytes, options);
  const cut = () => chunked(bytes, (k) => sizes[k % sizes.length] as number);
  expect(comparable(await verifyStream(cut(), { ...options, wholeBytes: 0 }))).toEqual(
    comparable(expected),
  );
  const inJavaScript = await verifyStreamWith(cut(), { ...options, wholeBytes: 0 }, 'canonical-js');
  expect(comparable(inJavaScript)).toEqual(comparable(expected));
  return expected;
}

/** Chunk sizes: single bytes, a few bytes (cuts inside escapes and UTF-8), events, whole. */
const sizes = fc.oneof(
  fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
  fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 5 }),
  fc.constant([1 << 20]),
);

/**
 * Each spoils an event's text: a duplicate name (at the top, inside, or escaped), an
 * out-of-range number, a change to a value, an event that is no object, a syntax error,
 * nesting at and past the limits. The chain must pick up again after the spoiled event.
 */
const SPOILERS: readonly ((text: string) => string)[] = [
  (t) => t.replace('{', '{"seq":1,'),
  (t) => t.replace(/\{("[^"]*":)/, '{"a":{"b":1,"b":2},$1'),
  (t) => t.replace('{', '{"big":1e999,'),
  (t) => t.replace('"seq":', '"seq": 1e0, "other":'),
  (t) => t.replace(/"span_id":"[^"]*"/, '"span_id":"changed"'),
  () => 'null',
  () => '[1,2]',
  (t) => t.slice(0, -1) + ',}',
  (t) => t.replace('{', '{"d":' + '['.repeat(520) + ']'.repeat(520) + ','),
  // Nesting at the strict reader's limit for an event (510 levels), and one past it.
  (t) => t.replace('{', '{"d":' + '['.repeat(509) + ']'.repeat(509) + ','),
  (t) => t.replace('{', '{"d":' + '['.repeat(510) + ']'.repeat(510) + ','),
  (t) => t.replace('{', '{"\\u0073eq":1,'),
];

for (const [label, tricky, nameOf] of [
  ['strings past ASCII', TRICKY, undefined],
  // Names mostly without escapes (the module leaves an event with an escaped name, and the
  // rest of its batch, to JavaScript), so that most batches are read in WebAssembly.
  ['ASCII strings', TRICKY_ASCII, (k: number) => (k % 50 === 37 ? '"\\' : `n${k % 9}`)],
] as const)
  describe(`verifyStream, batches of events (${label})`, () => {
    const RECORD = sealedRecord(40, tricky, nameOf);
    /** The record's text with each event written by `event` (the rest as JSON.stringify writes it). */
    function recordWith(event: (value: unknown, index: number) => string): string {
      const { events, ...rest } = RECORD;
      const head = JSON.stringify(rest).slice(0, -1);
      return `${head},"events":[${events.map(event).join(',')}]}`;
    }

    it('verifies the record as JSON.stringify writes it, pretty-printed, and with tab-indented events, however cut', async () => {
      const texts = [
        JSON.stringify(RECORD),
        JSON.stringify(RECORD, null, 2),
        recordWith((e) => JSON.stringify(e, null, '\t')),
      ];
      for (const text of texts)
        for (const s of [[1], [3, 5, 7], [64], [511, 13], [1 << 20]]) {
          expect((await expectAgreement(text, s)).verdict).toBe('valid');
        }
    });

    it('verifies a record with more events than one batch holds, in one chunk and cut', async () => {
      const big = JSON.stringify(sealedRecord(700, tricky, nameOf));
      for (const s of [[1 << 20], [4096, 333], [1]])
        expect((await expectAgreement(big, s)).verdict).toBe('valid');
    });

    it('reads each chunk on its own, even chunks with the same text', async () => {
      // Every chunk after the first is the same event text and its comma: what a pass found in
      // one chunk (where the next backslash is…) must not be taken for the next one's.
      const event = '{"s":"\\u0061\\/","t":"\\n","n":1,"_hash":"x"}';
      const head = '{"$schema":"runback.audit/v2","manifest":{"content_digest":"x"},"events":[';
      const pieces = [head, ...Array.from({ length: 40 }, () => event + ','), event + ']}'];
      const bytes = new TextEncoder().encode(pieces.join(''));
      const encoder = new TextEncoder();
      async function* chunks(): AsyncGenerator<Uint8Array> {
        for (const piece of pieces) yield encoder.encode(piece);
      }
      const expected = comparable(verifyJson(bytes, options));
      expect(expected.messages.join(' ')).toContain('content_digest');
      expect(comparable(await verifyStream(chunks(), { ...options, wholeBytes: 0 }))).toEqual(
        expected,
      );
    });

    it('agrees with verifyJson on events in any member order and form, however cut', async () => {
      await fc.assert(
        fc.asyncProperty(fc.gen(), fc.constantFrom(0, 0.05, 0.3), sizes, async (g, rate, s) => {
          const text = recordWith(written(randomOf(g), rate));
          const result = await expectAgreement(text, s);
          // Every form of the same events is the same record (docs/spec.md §2).
          expect(result.verdict).toBe('valid');
        }),
        { numRuns: nameOf === undefined ? 60 : 20 },
      );
    });

    it('agrees with verifyJson when one event is spoiled, however cut', async () => {
      for (const spoil of SPOILERS)
        for (const at of [0, 1, 17, RECORD.events.length - 1])
          for (const s of [[1], [5, 3], [200], [1 << 20]]) {
            const text = recordWith((e, i) =>
              i === at ? spoil(JSON.stringify(e)) : JSON.stringify(e),
            );
            await expectAgreement(text, s);
          }
    });

    it('agrees with verifyJson when one event in any form is spoiled, however cut', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.gen(),
          fc.nat(RECORD.events.length - 1),
          fc.nat(SPOILERS.length - 1),
          sizes,
          async (g, at, which, s) => {
            const write = written(randomOf(g), 0.05);
            const spoil = SPOILERS[which] as (text: string) => string;
            const text = recordWith((e, i) => (i === at ? spoil(write(e)) : write(e)));
            await expectAgreement(text, s);
          },
        ),
        { numRuns: nameOf === undefined ? 40 : 15 },
      );
    });

    it('agrees with verifyJson on records cut short or given extra text after their events', async () => {
      const text = JSON.stringify(RECORD);
      const events = text.indexOf('"events":[');
      for (const end of [events + 11, events + 500, text.length - 300, text.length - 1]) {
        await expectAgreement(text.slice(0, end), [97]);
        await expectAgreement(text.slice(0, end) + ']}', [1 << 20]);
      }
      await expectAgreement(text.replace('"events":[', '"events":[ , '), [50]);
      await expectAgreement(text.replace('"events":[', '"events":[{}} '), [50]);
    });
  });

describe('verifyStream, batches read by the pass in WebAssembly', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** verifyStream's result on `text` cut in chunks of `size`, and how many events the module read. */
  async function streamed(text: string, size: number): Promise<[VerifyResult, number]> {
    const bytes = new TextEncoder().encode(text);
    const read = vi.spyOn(WasmPass.prototype, 'read');
    const result = await verifyStream(
      chunked(bytes, () => size),
      { ...options, wholeBytes: 0 },
    );
    const proven = read.mock.results.filter((r) => (r.value as number) >= 0).length;
    read.mockRestore();
    return [result, proven];
  }

  it('reads ASCII batches with it, and a text past its first capacity with a larger instance', async () => {
    // Escape-free names: the module leaves an event with an escaped name to JavaScript.
    const record = sealedRecord(12_000, TRICKY_ASCII, (k) => `n${k % 9}`);
    const text = JSON.stringify(record);
    const expected = comparable(verifyJson(new TextEncoder().encode(text), options));
    expect(expected.verdict).toBe('valid');
    // One chunk of the whole text (past 2 MiB, the least capacity), then 64 KiB chunks.
    expect(text.length).toBeGreaterThan(2 << 20);
    const create = vi.spyOn(WasmPass, 'create');
    for (const size of [1 << 23, 1 << 16]) {
      const [result, proven] = await streamed(text, size);
      expect(comparable(result)).toEqual(expected);
      // Every event but those a chunk's end cut (and then read as the next text's first).
      expect(proven).toBeGreaterThan(record.events.length * 0.9);
    }
    expect(create.mock.calls.some(([capacity]) => capacity >= text.length)).toBe(true);
  });

  it('goes on reading with it after a batch it left to JavaScript', async () => {
    // Event 40's escaped name is JavaScript's to order; the batches after it are the module's.
    const record = sealedRecord(2_000, TRICKY_ASCII, (k) => (k === 40 ? 'a\\b' : `n${k % 9}`));
    const text = JSON.stringify(record);
    const [result, proven] = await streamed(text, 1 << 20);
    expect(comparable(result)).toEqual(
      comparable(verifyJson(new TextEncoder().encode(text), options)),
    );
    expect(result.verdict).toBe('valid');
    expect(proven).toBeGreaterThan(record.events.length - 300);
    expect(proven).toBeLessThan(record.events.length);
  });

  it('leaves to JavaScript the batches of a text past ASCII', async () => {
    const text = JSON.stringify(sealedRecord(40, TRICKY));
    const [result, proven] = await streamed(text, 1 << 20);
    expect(result.verdict).toBe('valid');
    expect(proven).toBe(0);
  });
});
