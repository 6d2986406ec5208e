// Properties of the event canonicalizer's own fast paths, read both from the text and (when
// the text is ASCII) from its bytes: every chain hash and member text it offers is what the
// plain canonical form of the parsed value gives (docs/spec.md §2, §3, §4.3), whatever the
// member order and whitespace; the permutation it remembers per object shape never changes an
// order; the head bytes it takes from an event's own _hash are used only when they hold the
// hash; and a decimal it calls canonical without printing prints as written.
import { canonical, canonicalWithout, sha256Hex } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eventOf,
  randomOf,
  shuffled,
  treeOf,
  valueOf,
  wellFormedString,
  writeJson,
  type Random,
  type Tree,
} from '../../test/support/json-writer.js';
import { eventsArrayStart } from './canonical-events.js';
import { isShortDecimal } from './canonical-tokens.js';
import { EventCanonicalizer } from './event-canonicalizer.js';

const CASSETTE = ['request', 'response', 'input', 'output'];
const decoder = new TextDecoder();

/** ASCII strings that still need every kind of escape. */
const asciiString = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\u0001', '\u001f', '~'),
  maxLength: 10,
});

/** `tree` with non-ASCII characters of names spelled out in ASCII (repeats dropped). */
function asciiNames(tree: Tree): Tree {
  if (tree.kind === 'scalar') return tree;
  if (tree.kind === 'array') return { kind: 'array', items: tree.items.map(asciiNames) };
  const seen = new Set<string>();
  const members: (readonly [string, Tree])[] = [];
  for (const [name, value] of tree.members) {
    const ascii = name
      .split('')
      .map((c) => (c.charCodeAt(0) < 0x80 ? c : `U${c.charCodeAt(0).toString(16)}`))
      .join('');
    if (seen.has(ascii)) continue;
    seen.add(ascii);
    members.push([ascii, asciiNames(value)]);
  }
  return { kind: 'object', members };
}

/** What an event's _hash holds: its chain hash, the same but for the last digit, or other. */
type HashForm = 'chain' | 'near' | 'other';
const hashForms = fc.array(fc.constantFrom<HashForm>('chain', 'chain', 'near', 'other'), {
  minLength: 1,
  maxLength: 6,
});

/**
 * Events with the cassette's members added, each event's _hash set as `forms` says (by
 * position, cycling), members shuffled: the record's text.
 */
function recordText(
  events: readonly Tree[],
  extras: readonly (readonly (readonly [string, Tree])[])[],
  rate: number,
  random: Random,
  forms: readonly HashForm[] = ['chain'],
): string {
  let head = '';
  const written = events.map((event, k) => {
    if (event.kind !== 'object') throw new Error('an event is an object');
    const taken = new Set(event.members.map(([name]) => name));
    const members = [...event.members, ...(extras[k] ?? []).filter(([name]) => !taken.has(name))];
    const value = valueOf({ kind: 'object', members }) as Record<string, unknown>;
    head = sha256Hex(head + canonicalWithout(value, '_hash'));
    const form = forms[k % forms.length];
    const hash =
      form === 'near'
        ? head.slice(0, 63) + (head[63] === '0' ? '1' : '0')
        : form === 'other'
          ? 'x'
          : head;
    const withHash = members.map(([name, tree]): readonly [string, Tree] =>
      name === '_hash' ? [name, { kind: 'scalar', value: hash }] : [name, tree],
    );
    return writeJson(shuffled({ kind: 'object', members: withHash }, random), rate, random);
  });
  return '{"events":[' + written.join(',') + ']}';
}

/**
 * Requires every event of `text` to be offered with the chain hash and member texts of the
 * plain canonical form, read from the text and, when given, from `bytes`.
 */
function expectAgreement(text: string, bytes?: Uint8Array): void {
  const events = (JSON.parse(text) as { events: Record<string, unknown>[] }).events;
  const result = new EventCanonicalizer(text, bytes).scanArray(eventsArrayStart(text));
  expect(result).not.toBeNull();
  if (result === null) return;
  expect(result.count).toBe(events.length);
  expect(result.chained).toBe(events.length);
  let head = '';
  events.forEach((event, k) => {
    expect(result.proven[k]).toBe(1);
    head = sha256Hex(head + canonicalWithout(event, '_hash'));
    expect(result.hashes[k]).toBe(head);
    for (let j = result.firstMember[k] as number; j < (result.firstMember[k + 1] as number); j++) {
      const start = result.memberNameStart[j] as number;
      if (start < 0) continue; // an escaped name: not matched by name
      const name = text.slice(start, result.memberNameEnd[j]);
      const expected = canonical(event[name]);
      const known = result.memberText[j] as number;
      if (known === -1) {
        expect(text.slice(result.memberValueStart[j], result.memberValueEnd[j])).toBe(expected);
      } else if (known >= 0) {
        expect(result.texts[known]).toBe(expected);
        const utf8 = result.textBytes.subarray(result.textStarts[known], result.textEnds[known]);
        expect(decoder.decode(utf8)).toBe(expected);
      } else {
        // Unknown only for members the cassette does not read.
        expect(CASSETTE).not.toContain(name);
      }
    }
  });
}

const extrasOf = (strings: fc.Arbitrary<string>) =>
  fc.array(
    fc.uniqueArray(fc.tuple(fc.constantFrom(...CASSETTE), treeOf(strings)), {
      maxLength: 4,
      selector: ([name]) => name,
    }),
    { maxLength: 6 },
  );

describe('event canonicalizer', () => {
  it('agrees with the plain canonical form in any member order and whitespace', () => {
    fc.assert(
      fc.property(
        fc.array(eventOf(wellFormedString), { minLength: 1, maxLength: 6 }),
        extrasOf(wellFormedString),
        fc.constantFrom(0, 0.05, 0.3),
        hashForms,
        fc.gen(),
        (events, extras, rate, forms, g) => {
          const random = randomOf(g);
          const text = recordText(events, extras, rate, random, forms);
          expectAgreement(text);
          expectAgreement(text, Buffer.from(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees on ASCII records indented any way, read from their bytes', () => {
    // Runs of spaces of every length and alignment, which the reader steps over four at a time.
    const indent = fc.oneof(
      fc.integer({ min: 1, max: 10 }),
      fc.constantFrom('\t', ' \t   ', '\r\n', '     \t'),
    );
    fc.assert(
      fc.property(
        fc.array(eventOf(asciiString), { minLength: 1, maxLength: 4 }),
        indent,
        fc.nat(7),
        (events, space, shift) => {
          const values = events.map((event) => valueOf(asciiNames(event)));
          const text =
            ' '.repeat(shift) + JSON.stringify({ events: values }, null, space).trimStart();
          const bytes = Buffer.from(text);
          expect(bytes.length).toBe(text.length);
          expectAgreement(text, bytes);
          expectAgreement(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees when reading the bytes of ASCII records', () => {
    fc.assert(
      fc.property(
        fc.array(eventOf(asciiString), { minLength: 1, maxLength: 6 }),
        extrasOf(asciiString),
        fc.constantFrom(0, 0.05, 0.3),
        hashForms,
        fc.gen(),
        (events, extras, rate, forms, g) => {
          const random = randomOf(g);
          const text = recordText(
            events.map(asciiNames),
            extras.map((members) =>
              members.map(([name, tree]) => [name, asciiNames(tree)] as const),
            ),
            rate,
            random,
            forms,
          );
          const bytes = Buffer.from(text);
          expect(bytes.length).toBe(text.length);
          expectAgreement(text, bytes);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sorts objects of one shape written in many orders', () => {
    // Names sharing first characters and lengths, so every object lands on the same
    // remembered permutation and most tries of it fail.
    const names = ['a', 'b', 'ab', 'ba', 'aa', 'b\u0000', 'a\uffff'];
    const object = fc
      .shuffledSubarray(names, { minLength: 3, maxLength: 3 })
      .map((chosen): Tree => ({
        kind: 'object',
        members: chosen.map((name, i) => [name, { kind: 'scalar', value: i }] as const),
      }));
    fc.assert(
      fc.property(fc.array(object, { minLength: 2, maxLength: 12 }), fc.gen(), (objects, g) => {
        const random = randomOf(g);
        const events = objects.map((input): Tree => ({
          kind: 'object',
          members: [
            ['_hash', { kind: 'scalar', value: '' }],
            ['input', input],
            ['output', shuffled(input, random)],
          ],
        }));
        const text = recordText(events, [], 0, random);
        expectAgreement(text, Buffer.from(text));
        expectAgreement(text);
      }),
      { numRuns: 200 },
    );
  });

  it('declines an object repeating a name after objects of its shape were sorted', () => {
    const events = [
      '{"input":{"a":0,"b":1,"ab":2},"_hash":"x"}',
      '{"input":{"b":0,"ab":1,"a":2},"_hash":"x"}',
      '{"input":{"ab":0,"b":1,"b":2},"_hash":"x"}',
      '{"input":{"b":0,"a":1,"a":2},"_hash":"x"}',
      '{"input":{"a":0,"b":1,"ab":2},"_hash":"x"}',
    ];
    const text = '{"events":[' + events.join(',') + ']}';
    const result = new EventCanonicalizer(text, Buffer.from(text)).scanArray(
      eventsArrayStart(text),
    );
    expect(Array.from(result?.proven.subarray(0, 5) ?? [])).toEqual([1, 1, 0, 0, 1]);
    expect(result?.chained).toBe(2);
  });
});

describe('isShortDecimal', () => {
  it('calls canonical only decimals Number::toString writes as they are', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const token = fc.oneof(
      fc.tuple(fc.constantFrom('', '0', '1', '9', '12', '100'), digits(0, 16)),
      fc.tuple(digits(0, 16), digits(0, 16)),
    );
    fc.assert(
      fc.property(token, fc.constantFrom('.', 'e', '.5e'), ([whole, fraction], point) => {
        const text = whole + point + fraction;
        if (isShortDecimal(text, 0, text.length)) {
          expect(String(Number(text))).toBe(text);
          expect(String(-Number(text))).toBe('-' + text);
        }
      }),
      { numRuns: 20000 },
    );
  });

  it('is true for every decimal of at most 15 significant digits in shortest form', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = String(Math.abs(value));
        const digits = text.replace('.', '').replace(/^0+/, '');
        const shaped = /^([1-9][0-9]*|0(?=\.[1-9]))\.[0-9]*[1-9]$/.test(text);
        expect(isShortDecimal(text, 0, text.length)).toBe(shaped && digits.length <= 15);
      }),
      { numRuns: 20000 },
    );
    // Fifteen digits and more, at the edges of the fast path.
    expect(isShortDecimal('0.123456789012345', 0, 17)).toBe(true);
    expect(isShortDecimal('0.1234567890123456', 0, 18)).toBe(false);
    expect(isShortDecimal('12345678901234.5', 0, 16)).toBe(true);
    expect(isShortDecimal('1.50', 0, 4)).toBe(false);
    expect(isShortDecimal('0.05', 0, 4)).toBe(false);
    expect(isShortDecimal('01.5', 0, 4)).toBe(false);
    expect(isShortDecimal('1.', 0, 2)).toBe(false);
    expect(isShortDecimal('1.5e3', 0, 5)).toBe(false);
  });
});
