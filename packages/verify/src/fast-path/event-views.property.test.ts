// Property: verifyJson's default reading, which gives the steps proven events as views
// (event-views.ts), gives exactly the result of the plain reading on any record, whatever its
// member order and whitespace, however its events were tampered with (values of any type in
// the members the steps read, members added or removed, escaped or __proto__ names), and on
// any text a one-character edit makes of it, valid JSON or not (docs/spec.md §5, §6).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HMAC_KEY, PEM, sealedLoanRecord, viaJson } from '../../test/support/fixtures.js';
import {
  randomOf,
  shuffled,
  treeFromValue,
  writeJson,
  type Random,
} from '../../test/support/json-writer.js';
import { verifyJson, verifyJsonWith } from '../verify.js';
import { VIEW_MEMBERS } from './event-views.js';

type Json = Record<string, unknown>;

const TRUST = { pinned: [PEM.current], hmacKey: HMAC_KEY };
const encoder = new TextEncoder();

/**
 * Requires verifyJson's result on `text`, given as a string and as its UTF-8 bytes (read
 * four characters at a time when ASCII), to be the plain reading's; returns it.
 */
function expectPlainResult(text: string): ReturnType<typeof verifyJson> {
  const ours = verifyJson(text, TRUST);
  expect(ours).toEqual(verifyJsonWith(text, TRUST, 'plain'));
  expect(verifyJson(encoder.encode(text), TRUST)).toEqual(ours);
  return ours;
}

/** Values a step treats differently: every JSON type, empty and not, the forms steps expect. */
const stepValue = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    1,
    -1,
    1.5,
    2 ** 53,
    '',
    '1',
    'run',
    'llm',
    'tool',
    'env',
    'start',
    'end',
    'success',
    '2026-06-14T02:47:11.000Z',
    '2026-06-14T02:47:11.000+00:00',
    [],
    {},
    [1],
    { error: 'x' },
    { keep: [] },
    { keep: ['a'], drop: ['b'] },
    { drop: 'x' },
    { model_id: 'm' },
    { model_id: 1 },
    { a: { b: [1, 'x'] } },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Member names to set on an event: those the steps read, and some they do not. */
const memberName = fc.constantFrom(...VIEW_MEMBERS, 'usage', 'latency_ms', '__proto__', 'status');

/** One change to an event's members. */
const eventEdit = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), name: memberName, value: stepValue }),
  fc.record({ kind: fc.constant('delete' as const), name: memberName }),
);

type EventEdit = { kind: 'set'; name: string; value: unknown } | { kind: 'delete'; name: string };

/** The events of `record` with `edits` applied to the events they name. */
function edited(record: Json, edits: readonly [number, EventEdit][]): Json {
  const copy = viaJson(record);
  const events = copy['events'] as Json[];
  for (const [at, edit] of edits) {
    const event = events[at % events.length] as Json;
    if (edit.kind === 'delete') delete event[edit.name];
    else
      Object.defineProperty(event, edit.name, {
        value: edit.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return copy;
}

/** A member name written with an escape, as `"\u0074ype"` for `type`. */
function escapeOneName(text: string, random: Random): string {
  const names = VIEW_MEMBERS.filter((name) => text.includes(`"${name}":`));
  if (names.length === 0) return text;
  const name = names[Math.floor(random() * names.length)] as string;
  const escaped = '\\u' + name.charCodeAt(0).toString(16).padStart(4, '0') + name.slice(1);
  return text.replace(`"${name}":`, `"${escaped}":`);
}

/** Characters that break or bend JSON tokens: digits, signs, letters of literals, controls. */
const EDIT_CHARS = [
  ...'0123456789-+.eEtrufalsn"\\/,:{}[] xu',
  '\n',
  '\t',
  '\u0001',
  '\u001f',
  '\u00e9',
];

describe('the default reading agrees with the plain one', () => {
  const records = [
    ['signed', viaJson(sealedLoanRecord()) as unknown as Json],
    ['HMAC', viaJson(sealedLoanRecord({ alg: 'HMAC-SHA256', key: HMAC_KEY })) as unknown as Json],
    ['unsigned', viaJson(sealedLoanRecord(null)) as unknown as Json],
  ] as const;

  it('on any member order and whitespace of an intact record', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...records),
        fc.constantFrom(0, 0.05, 0.3),
        fc.gen(),
        ([, record], rate, g) => {
          const random = randomOf(g);
          const text = writeJson(shuffled(treeFromValue(record), random), rate, random);
          expect(expectPlainResult(text).integrity).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('on records whose events were tampered with', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...records),
        fc.array(fc.tuple(fc.nat(), eventEdit), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(0, 0.05, 0.3),
        fc.boolean(),
        fc.gen(),
        ([, record], edits, rate, escape, g) => {
          const random = randomOf(g);
          let text = writeJson(
            shuffled(treeFromValue(edited(record, edits)), random),
            rate,
            random,
          );
          if (escape) text = escapeOneName(text, random);
          expectPlainResult(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('on any one-character edit of a record text, valid JSON or not', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...records),
        fc.constantFrom(0, 0.05),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.constantFrom('insert', 'replace', 'delete'),
        fc.constantFrom(...EDIT_CHARS),
        fc.gen(),
        ([, record], rate, where, how, c, g) => {
          const random = randomOf(g);
          const text = writeJson(shuffled(treeFromValue(record), random), rate, random);
          // Inside the events array, where the views are made.
          const from = text.indexOf('"events"');
          const at = from + Math.floor(where * (text.length - from));
          const changed =
            how === 'insert'
              ? text.slice(0, at) + c + text.slice(at)
              : text.slice(0, at) + (how === 'replace' ? c : '') + text.slice(at + 1);
          expectPlainResult(changed);
        },
      ),
      { numRuns: 400 },
    );
  });
});
