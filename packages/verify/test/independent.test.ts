// An independent verifier (test/support/independent-verifier.ts, written from docs/spec.md
// alone: JSON.parse, the plain canonical form, node:crypto) agrees with @runback/verify on
// every intact and tampered corpus record, in its stored member order, with members reversed
// at every level (_hash last), sorted (_hash first), compact and pretty printed; the corpus
// holds records in both output readings.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus, type CorpusCase } from '../../../test-support/corpus.js';
import { verify } from '../src/index.js';
import { verifyJsonWith } from '../src/verify.js';
import { independentVerify, type IndependentTrust } from './support/independent-verifier.js';

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const trustOf = (t: CorpusCase['trust']): IndependentTrust => {
  const pem = (f: string): string => readFileSync(join(CORPUS_DIR, f), 'utf8');
  return {
    ...(t.pinned ? { pinned: t.pinned.map(pem) } : {}),
    ...(t.revoked ? { revoked: t.revoked.map(pem) } : {}),
    ...(t.hmac_key !== undefined ? { hmacKey: t.hmac_key } : {}),
  };
};

/** Rebuilds every object with its members in the order `order` gives (a `__proto__` stays data). */
function reorder(v: J, order: (keys: string[]) => string[]): J {
  if (Array.isArray(v)) return v.map((x) => reorder(x, order));
  if (v === null || typeof v !== 'object') return v;
  const out: J = {};
  for (const k of order(Object.keys(v)))
    Object.defineProperty(out, k, {
      value: reorder(v[k], order),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}
const reversed = (keys: string[]): string[] => [...keys].reverse();
const sortedHashFirst = (keys: string[]): string[] =>
  [...keys].sort().sort((a, b) => Number(b === '_hash') - Number(a === '_hash'));

const cases = loadCorpus().filter((c) => !c.file.startsWith('malformed/'));

describe('an independent verifier agrees with ours', () => {
  it('covers both output readings and foreign member order', () => {
    const files = cases.map((c) => c.file);
    for (const f of [
      'valid/published-reading.json',
      'valid/seed-reading.json',
      'valid/foreign-order.json',
      'valid/runback-published-ed25519.json',
    ])
      expect(files).toContain(f);
  });

  for (const c of cases) {
    it(`${c.file} [${Object.keys(c.trust).join(',') || 'no keys'}]`, () => {
      const text = readFileSync(join(CORPUS_DIR, c.file), 'utf8');
      const trust = trustOf(c.trust);
      const options = { ...trust };
      const record: J = JSON.parse(text.replace(/^\uFEFF/, ''));
      const variants = [
        text,
        JSON.stringify(reorder(record, reversed), null, 2),
        JSON.stringify(reorder(record, sortedHashFirst)),
        JSON.stringify(reorder(record, sortedHashFirst), null, 2),
      ];
      for (const variant of variants) {
        const theirs = independentVerify(variant, trust);
        expect(theirs.verdict).toBe(c.expected.verdict);
        for (const reading of ['fast', 'plain'] as const) {
          const ours = verifyJsonWith(variant, options, reading);
          expect(ours.verdict).toBe(theirs.verdict);
          expect(ours.checks).toEqual(theirs.checks);
        }
        expect(verify(JSON.parse(variant.replace(/^\uFEFF/, '')), options).checks).toEqual(
          theirs.checks,
        );
      }
    });
  }

  it('on random edits of intact records, in any member order', () => {
    const base = cases.filter((c) => c.expected.verdict === 'valid');
    const edit = fc.record({
      which: fc.nat(),
      event: fc.nat(),
      member: fc.constantFrom(
        'output',
        'error',
        'ts_end',
        'seq',
        'input',
        'response',
        'key_projection',
        'ts_start',
      ),
      value: fc.oneof(
        fc.constant(null),
        fc.constant(undefined),
        fc.jsonValue({ maxDepth: 2 }),
        fc.constant({ keep: [] }),
        fc.constant({ keep: ['/a/0'], drop: ['b.c'] }),
        fc.constant('2026-06-14T02:47:11+00:00'),
      ),
      order: fc.constantFrom(reversed, sortedHashFirst),
    });
    fc.assert(
      fc.property(edit, ({ which, event, member, value, order }) => {
        const c = base[which % base.length] as CorpusCase;
        const record: J = JSON.parse(
          readFileSync(join(CORPUS_DIR, c.file), 'utf8').replace(/^\uFEFF/, ''),
        );
        const events = record.events as J[];
        if (events.length > 0) {
          const target = events[event % events.length];
          if (value === undefined) delete target[member];
          else target[member] = value;
        }
        const text = JSON.stringify(reorder(record, order), null, 2);
        const trust = trustOf(c.trust);
        const theirs = independentVerify(text, trust);
        const ours = verifyJsonWith(text, { ...trust }, 'fast');
        expect(ours.checks).toEqual(theirs.checks);
        expect(ours.verdict).toBe(theirs.verdict);
      }),
      { numRuns: 200 },
    );
  });
});
