// The canonicalizing pass in WebAssembly against the pass in JavaScript on the same ASCII
// record text: wherever the module answers, every table it gives is the JavaScript pass's, entry
// for entry (so the chain hashes, the views and the cassette's member texts are the same); where
// it does not (an escape or number it would have to reprint, an escaped name, a syntax error,
// a repeated name), it answers null and the JavaScript pass reads the text. Both are also held
// to the plain canonical form by event-canonicalizer.property.test.ts.
import { canonicalWithout, sha256Hex } from '@runback/canonical';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  eventOf,
  randomOf,
  shuffled,
  valueOf,
  wellFormedString,
  writeJson,
  type Tree,
} from '../../test/support/json-writer.js';
import { sharedVectorsDir } from '../../../../test-support/vectors.js';
import { eventsArrayStart } from './canonical-events.js';
import { EventCanonicalizer, type CanonicalizerResult } from './event-canonicalizer.js';
import { wasmScanArray } from './wasm-canonicalizer.js';

/** ASCII strings with every escape JSON text may hold, the ones the module reprints included. */
const asciiString = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\t', '\u0001', '\u001f', '~'),
  maxLength: 10,
});
/** Names without escapes, several sharing a start, some past ASCII (two and three bytes). */
const plainName = fc.constantFrom(
  'a',
  'b',
  'ab',
  'ba',
  'aa',
  'A',
  'Z_',
  'input',
  'output',
  'x1',
  'é',
  'aé',
  'a€',
  'ü',
);
/**
 * Scalars as JSON.stringify writes them, which the module proves canonical or has printed
 * (every double: 17 digits, exponents, -0 written 0).
 */
const friendlyScalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1e15 + 1, max: 1e15 - 1 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.5, -0.25, 92.84, 0.000001, 123456789012.345, -0, 0.1 + 0.2, 1e21, 1e-7),
  fc.string({
    unit: fc.constantFrom('a', ' ', '"', '\\', '\n', '\u0001', '~', 'é', '€', '😀', '\u2028'),
    maxLength: 8,
  }),
);

/** Trees of plain names and friendly scalars: the records the module is for. */
const friendlyTree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    friendlyScalar.map((value): Tree => ({ kind: 'scalar', value })),
    fc.array(tie('tree'), { maxLength: 4 }).map((items): Tree => ({ kind: 'array', items })),
    fc
      .uniqueArray(fc.tuple(plainName, tie('tree')), { maxLength: 5, selector: ([k]) => k })
      .map((members): Tree => ({ kind: 'object', members })),
  ),
})).tree;

const friendlyEvent = fc
  .uniqueArray(
    fc.tuple(fc.oneof(plainName, fc.constantFrom('request', 'response', 'seq')), friendlyTree),
    { maxLength: 7, selector: ([k]) => k },
  )
  .map((members): Tree => ({ kind: 'object', members }));

/**
 * The record text of `events`, each with its chain hash as _hash (or a wrong one, by `wrong`),
 * members shuffled and whitespace added at `rate`.
 */
function recordText(
  events: readonly Tree[],
  rate: number,
  random: () => number,
  wrong: (k: number) => boolean,
): string {
  let head = '';
  const written = events.map((event, k) => {
    if (event.kind !== 'object') throw new Error('an event is an object');
    const members = event.members.filter(([name]) => name !== '_hash');
    head = sha256Hex(
      head + canonicalWithout(valueOf({ kind: 'object', members }) as object, '_hash'),
    );
    const hash = wrong(k) ? head.slice(0, 63) + (head[63] === '0' ? '1' : '0') : head;
    const tree: Tree = {
      kind: 'object',
      members: [...members, ['_hash', { kind: 'scalar', value: hash }]],
    };
    return writeJson(shuffled(tree, random), rate, random);
  });
  return '{"events":[' + written.join(',') + ']}';
}

/** The JavaScript pass over the same text and bytes. */
function javascriptScan(text: string, bytes: Uint8Array): CanonicalizerResult | null {
  return new EventCanonicalizer(text, bytes).scanArray(eventsArrayStart(text));
}

const upTo = (table: ArrayLike<number>, count: number) => Array.from(table).slice(0, count);

/** Requires the module's result to be the JavaScript pass's, table by table. */
function expectSameResult(text: string, wasm: CanonicalizerResult): void {
  const js = javascriptScan(text, Buffer.from(text));
  expect(js).not.toBeNull();
  if (js === null) return;
  const count = js.count;
  expect(wasm.count).toBe(count);
  expect(upTo(wasm.proven, count)).toEqual(upTo(js.proven, count));
  expect(wasm.chained).toBe(js.chained);
  expect(wasm.hashes.slice(0, count)).toEqual(js.hashes.slice(0, count));
  expect(upTo(wasm.hashAsStored, count)).toEqual(upTo(js.hashAsStored, count));
  for (const table of ['starts', 'ends', 'names', 'depths'] as const)
    expect(upTo(wasm[table], count), table).toEqual(upTo(js[table], count));
  expect(upTo(wasm.firstMember, count + 1)).toEqual(upTo(js.firstMember, count + 1));
  const members = js.firstMember[count] as number;
  for (const table of [
    'memberNameStart',
    'memberNameEnd',
    'memberValueStart',
    'memberValueEnd',
    'memberText',
  ] as const)
    expect(upTo(wasm[table], members), table).toEqual(upTo(js[table], members));
  expect(wasm.texts).toEqual(js.texts);
  wasm.texts.forEach((expected, k) => {
    const utf8 = wasm.textBytes.subarray(wasm.textStarts[k], wasm.textEnds[k]);
    expect(new TextDecoder().decode(utf8)).toBe(expected);
  });
}

describe('canonicalizing pass in WebAssembly', () => {
  it('gives the JavaScript pass its every table on records it answers for', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.array(friendlyEvent, { minLength: 1, maxLength: 6 }),
        // Past 0, the writer also varies number and string forms, which the module leaves.
        fc.constantFrom(0, 0, 0.02),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.gen(),
        (events, rate, wrongs, g) => {
          const text = recordText(events, rate, randomOf(g), (k) => wrongs[k % wrongs.length]!);
          const wasm = wasmScanArray(text, Buffer.from(text), eventsArrayStart(text));
          if (wasm === null) return;
          answered++;
          expectSameResult(text, wasm);
        },
      ),
      { numRuns: 400 },
    );
    // The records are built for it: most are answered.
    expect(answered).toBeGreaterThan(200);
  });

  it('answers null or the same tables on records with any escape, number and name', () => {
    fc.assert(
      fc.property(
        fc.array(eventOf(fc.oneof(asciiString, wellFormedString)), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(0, 0.3),
        fc.gen(),
        (events, rate, g) => {
          const text = recordText(events, rate, randomOf(g), () => false);
          const wasm = wasmScanArray(text, Buffer.from(text), eventsArrayStart(text));
          if (wasm !== null) expectSameResult(text, wasm);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never answers for text the strict reader would refuse, and never throws', () => {
    const good = recordText(
      [
        {
          kind: 'object',
          members: [
            ['input', { kind: 'object', members: [['b', { kind: 'scalar', value: 1 }]] }],
            ['a', { kind: 'scalar', value: 'x' }],
          ],
        },
      ],
      0,
      () => 0.5,
      () => false,
    );
    expect(wasmScanArray(good, Buffer.from(good), eventsArrayStart(good))).not.toBeNull();
    fc.assert(
      fc.property(
        fc.nat({ max: good.length - 1 }),
        fc.constantFrom('', ',', '}', ']', '"', '\\', ':', ' ', '\u0001', '0', '-', '{', 'x'),
        fc.nat(3),
        (at, insert, cut) => {
          const text = good.slice(0, at) + insert + good.slice(at + cut);
          const start = eventsArrayStart(text);
          if (start < 0) return;
          const wasm = wasmScanArray(text, Buffer.from(text), start);
          if (wasm === null) return;
          // Answered: then the text around the events is the only thing left to read, and
          // every event it answered for is JSON the JavaScript pass proves too.
          const js = javascriptScan(text, Buffer.from(text));
          expect(js).not.toBeNull();
          expect(upTo(js!.proven, js!.count)).toEqual(new Array<number>(js!.count).fill(1));
          expectSameResult(text, wasm);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers for the two member orders of the same events, with the same hashes', () => {
    fc.assert(
      fc.property(fc.array(friendlyEvent, { minLength: 1, maxLength: 4 }), (events) => {
        const sortedText = recordText(
          events,
          0,
          () => 0,
          () => false,
        );
        const values = (JSON.parse(sortedText) as { events: unknown[] }).events;
        const stringified = JSON.stringify({ events: values }, null, 2);
        const a = wasmScanArray(sortedText, Buffer.from(sortedText), eventsArrayStart(sortedText));
        const b = wasmScanArray(
          stringified,
          Buffer.from(stringified),
          eventsArrayStart(stringified),
        );
        expect(a === null).toBe(b === null);
        if (a !== null && b !== null) expect(b.hashes).toEqual(a.hashes);
      }),
      { numRuns: 200 },
    );
  });

  it('reads indentations of any length, eight spaces at a time or not, as the JavaScript pass does', () => {
    // Indents shorter than, equal to and past the eight bytes skipped at once, and ones the
    // word test does not skip (tabs, a carriage return before the line feed, a space after a tab).
    const indents = [1, 2, 7, 8, 9, 15, 16, 17, 31, '\t', ' \t', '\t        ', '        \t'];
    fc.assert(
      fc.property(
        fc.array(friendlyEvent, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...indents),
        fc.boolean(),
        (events, indent, crlf) => {
          const compact = recordText(
            events,
            0,
            () => 0,
            () => false,
          );
          let text = JSON.stringify(JSON.parse(compact), null, indent);
          if (crlf) text = text.replace(/\n/g, '\r\n');
          const wasm = wasmScanArray(text, Buffer.from(text), eventsArrayStart(text));
          expect(wasm).not.toBeNull();
          if (wasm !== null) expectSameResult(text, wasm);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('large events', () => {
  const scan = (text: string) => wasmScanArray(text, Buffer.from(text), eventsArrayStart(text));
  /**
   * A hundred small events, then one whose input holds `count` members, in order by name or
   * reversed (the small events' table rows lie where an overflowing member stack would write).
   */
  const wide = (count: number, reversed: boolean) => {
    const members: string[] = [];
    for (let i = 0; i < count; i++) members.push(`"k${String(i).padStart(6, '0')}":${i}`);
    if (reversed) members.reverse();
    const small = Array.from({ length: 100 }, (_, i) => `{"seq":${i},"input":{"b":1,"a":2}}`);
    return `{"events":[${small.join(',')},{"seq":100,"input":{${members.join(',')}}}]}`;
  };

  it('keeps the tables of an event with 60,000 open members (the member stack 90 % full)', () => {
    const text = wide(60_000, false);
    const wasm = scan(text);
    expect(wasm).not.toBeNull();
    if (wasm !== null) expectSameResult(text, wasm);
  });

  it('leaves to JavaScript an event with more open members than its stack holds', () => {
    const text = wide(70_000, false);
    expect(scan(text)).toBeNull();
    expect(javascriptScan(text, Buffer.from(text))?.proven[100]).toBe(1);
  });

  it('keeps the depth the JavaScript pass finds, and gives up past 500 levels', () => {
    const nested = (levels: number) => {
      let value = '1';
      for (let i = 0; i < levels; i++) value = i % 2 === 0 ? `[${value}]` : `{"b":${value},"a":0}`;
      return `{"events":[{"seq":0,"input":${value}},{"seq":1}]}`;
    };
    const text = nested(300);
    const wasm = scan(text);
    expect(wasm).not.toBeNull();
    if (wasm !== null) {
      expect(wasm.depths[0]).toBe(301);
      expectSameResult(text, wasm);
    }
    expect(scan(nested(505))).toBeNull();
  });

  it('sorts objects of up to 64 members and leaves larger ones out of order to JavaScript', () => {
    // Its sort is quadratic: 60,000 members reversed took 6.8 s before this bound (the
    // JavaScript pass: 20 ms).
    const small = wide(64, true);
    const wasm = scan(small);
    expect(wasm).not.toBeNull();
    if (wasm !== null) expectSameResult(small, wasm);
    expect(scan(wide(65, true))).toBeNull();
    expect(scan(wide(60_000, true))).toBeNull();
    expect(javascriptScan(wide(65, true), Buffer.from(wide(65, true)))?.proven[100]).toBe(1);
  });
});

/**
 * Names the module orders by their first eight bytes and, where those are equal, whole:
 * prefixes of each other at and around eight bytes, spaces and `!` (below the quote), and
 * names past ASCII in and after their first eight bytes.
 */
const eightByteName = fc.constantFrom(
  'abcdefgh',
  'abcdefghi',
  'abcdefgha',
  'abcdefg',
  'abcdefg!',
  'abcdefg ',
  'abcdefgh ',
  'abcdefghij',
  'ab',
  'ab ',
  'ab!',
  'a',
  'abcdefgé',
  'abcdefghé',
  'abcdefghz',
  'é',
  'éabcdefgh',
  'zzzzzzzzzzzzzzzz',
  'zzzzzzzzzzzzzzzza',
);

describe('member order by name', () => {
  it('orders names that share their first eight bytes as the JavaScript pass does', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc
            .uniqueArray(fc.tuple(eightByteName, friendlyTree), {
              minLength: 1,
              maxLength: 12,
              selector: ([k]) => k,
            })
            .map((members): Tree => ({
              kind: 'object',
              members: [...members, ['input', { kind: 'object', members }]],
            })),
          { minLength: 1, maxLength: 4 },
        ),
        fc.gen(),
        (events, g) => {
          const text = recordText(events, 0, randomOf(g), () => false);
          const wasm = wasmScanArray(text, Buffer.from(text), eventsArrayStart(text));
          if (wasm === null) return;
          answered++;
          expectSameResult(text, wasm);
        },
      ),
      { numRuns: 400 },
    );
    // These names are all ones the module orders itself: it gives up only for numbers.
    expect(answered).toBeGreaterThan(300);
  });

  it('refuses a name repeated past its first eight bytes, as the JavaScript pass does', () => {
    for (const name of ['abcdefgh', 'abcdefghij', 'abcdefgé']) {
      const text = `{"events":[{"input":{"${name}":1,"b":2,"${name}":3}}]}`;
      expect(wasmScanArray(text, Buffer.from(text), eventsArrayStart(text))).toBeNull();
    }
  });
});

describe('text past ASCII', () => {
  const scan = (text: string, bytes = Buffer.from(text)) =>
    wasmScanArray(text, bytes, eventsArrayStart(text));

  it('answers with the JavaScript tables, the text indexes counting UTF-16 code units', () => {
    const text =
      '{"run":{"name":"prêt à café 😀"},"events":[' +
      '{"output":{"ü":"€","a":"😀😀","é":1},"input":"\u2028ö","seq":0,"_hash":"x"},' +
      '{"request":{"zz":"𝄞","a€":[{"é":"ü"},"ß"]},"seq":1,"_hash":"y"}]}';
    expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
    const wasm = scan(text);
    expect(wasm).not.toBeNull();
    if (wasm !== null) expectSameResult(text, wasm);
  });

  it('reads after a byte order mark the decoder dropped', () => {
    const text = '{"events":[{"input":{"b":"é","a":1}}]}';
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const wasm = scan(text, bytes);
    expect(wasm).not.toBeNull();
    if (wasm !== null) expectSameResult(text, wasm);
  });

  it('leaves to JavaScript names whose UTF-8 order is not their UTF-16 order', () => {
    // U+E000 sorts after U+1F600 in UTF-16 (0xE000 > 0xD83D) but before it in UTF-8.
    const text = '{"events":[{"input":{"\ue000":1,"😀":2}}]}'.replace('\ue000', '');
    expect(scan(text)).toBeNull();
    expect(javascriptScan(text, Buffer.from(text))).not.toBeNull();
  });

  it('answers for the published implementation’s records, with the JavaScript tables', () => {
    const dir = sharedVectorsDir();
    if (dir === null) return;
    for (const name of ['sample-cassette.ed25519.json', 'sample-cassette.unsigned.json']) {
      const bytes = readFileSync(join(dir, 'runback-published', name));
      const text = new TextDecoder().decode(bytes);
      expect(bytes.length, name).toBeGreaterThan(text.length);
      const wasm = wasmScanArray(text, bytes, eventsArrayStart(text));
      expect(wasm, name).not.toBeNull();
      if (wasm !== null) expectSameResult(text, wasm);
    }
  });
});

describe('numbers the module has printed', () => {
  const record = (numbers: readonly string[]) =>
    '{"events":[' + numbers.map((n) => `{"input":{"n":${n}},"seq":0}`).join(',') + ']}';
  const scan = (text: string) => wasmScanArray(text, Buffer.from(text), eventsArrayStart(text));

  it('answers for numbers written as Number::toString prints them, with the JavaScript tables', () => {
    const text = record([
      '0.30000000000000004',
      '1e+21',
      '1e-7',
      '5e-324',
      '1.7976931348623157e+308',
      '-1.2345678901234567e-100',
      '12345678901234567000',
    ]);
    const wasm = scan(text);
    expect(wasm).not.toBeNull();
    if (wasm !== null) expectSameResult(text, wasm);
  });

  it('leaves to JavaScript a number written any other way', () => {
    for (const n of ['1.50', '1E+21', '1e21', '-0', '1e400', '0.0000001', '1.0', '100e-2']) {
      expect(scan(record(['1', n])), n).toBeNull();
      // The JavaScript pass reprints it (or declines the event), as before.
      expect(javascriptScan(record(['1', n]), Buffer.from(record(['1', n])))).not.toBeNull();
    }
  });
});

describe('canonicalizing pass without WebAssembly', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('answers null where WebAssembly is missing, and verification reads the text in JavaScript', async () => {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    const { wasmScanArray: scan } = await import('./wasm-canonicalizer.js');
    const text = recordText(
      [{ kind: 'object', members: [] }],
      0,
      () => 0,
      () => false,
    );
    expect(scan(text, Buffer.from(text), eventsArrayStart(text))).toBeNull();
    const { verifyJson } = await import('../verify.js');
    // An unsealed events array: the chain is read, the verdict is the plain reading's.
    const unsealed = verifyJson(Buffer.from(text));
    const reference = verifyJson(text);
    expect(unsealed).toEqual(reference);
  });
});
