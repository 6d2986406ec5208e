// Property: on any text of any record, every canonical text the fast path cuts from the input
// equals what the general path computes from the parsed value (docs/spec.md §2), and records
// written canonically take the fast path for every event.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PEM, sealedLoanRecord } from '../../test/support/fixtures.js';
import {
  expectCanonicalizedAgreement as expectAgreement,
  expectSameCanonicalizedReading as expectSameReading,
} from '../../test/support/canonicalized-agreement.js';
import { verifyJsonWith } from '../verify.js';
import {
  anyString,
  eventOf,
  randomOf,
  shuffled,
  writeJson,
  treeFromValue,
  type Tree,
} from '../../test/support/json-writer.js';

/** A value `depth` containers deep: objects and arrays as `shapes` says, siblings at each level. */
function nested(depth: number, shapes: readonly boolean[], leaf: Tree): Tree {
  let tree = leaf;
  for (let d = 0; d < depth; d++) {
    const sibling: Tree = { kind: 'scalar', value: d % 3 === 0 ? 1.5e-7 : `s${d}` };
    tree = shapes[d % shapes.length]
      ? {
          kind: 'object',
          members: [
            ['z', tree],
            [String(d % 11), sibling],
            ['\u00e9', { kind: 'scalar', value: d }],
          ],
        }
      : { kind: 'array', items: [sibling, tree, { kind: 'scalar', value: -0 }] };
  }
  return tree;
}

describe('canonicalizing pass agreement', () => {
  it('agrees whatever the member order of every object, in any written form', () => {
    fc.assert(
      fc.property(
        fc.array(eventOf(anyString), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(0, 0.05, 0.3),
        fc.gen(),
        (events, rate, g) => {
          const random = randomOf(g);
          const items = events.map((event) => shuffled(event, random));
          const record: Tree = { kind: 'object', members: [['events', { kind: 'array', items }]] };
          expectAgreement(writeJson(record, rate, random));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('agrees on values nested up to and past the depth limit, in linear time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 530 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(0, 0.1),
        fc.gen(),
        (depth, shapes, rate, g) => {
          const random = randomOf(g);
          const event: Tree = {
            kind: 'object',
            members: [
              ['input', nested(depth, shapes, { kind: 'scalar', value: 'leaf' })],
              ['_hash', { kind: 'scalar', value: 'h' }],
            ],
          };
          const written = writeJson(event, rate, random);
          const text = `{"events":[${written},${written}]}`;
          // Past the limit the reader refuses the text; below it both events are offered.
          if (expectSameReading(text).ok) expect(expectAgreement(text)).toBe(2);
          else expect(depth).toBeGreaterThan(508);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives verifyJson the verdict of the plain reading on any rewriting of a signed record', () => {
    const record = treeFromValue(JSON.parse(JSON.stringify(sealedLoanRecord())));
    const trust = { pinned: [PEM.current] };
    fc.assert(
      fc.property(fc.constantFrom(0, 0.05, 0.3, 1), fc.gen(), (rate, g) => {
        const random = randomOf(g);
        const text = writeJson(shuffled(record, random), rate, random);
        const fast = verifyJsonWith(text, trust, 'canonical');
        expect(fast).toEqual(verifyJsonWith(text, trust, 'plain'));
        expect(fast.verdict).toBe('valid');
      }),
      { numRuns: 80 },
    );
  });
});
