// verifyJson hashes events stored in canonical form straight from its input (docs/spec.md §7)
// and serializes the others. Whatever the text, its result must be exactly verify's on the
// parsed value: rewriting a record without changing its value keeps it valid, and any change
// of value is caught the same way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PEM, sealedLoanRecord, viaJson } from '../test/support/fixtures.js';
import {
  anyString,
  randomOf,
  treeFromValue,
  treeOf,
  writeJson,
  type Tree,
} from '../test/support/json-writer.js';
import { verify, verifyJson } from './verify.js';

const trust = { pinned: [PEM.current] };
const record = viaJson(sealedLoanRecord());
const tree = treeFromValue(record);

/** verifyJson on the text, checked against verify on the parsed text; returns the verdict. */
function verdictAgreeing(text: string): string {
  const fast = verifyJson(text, trust);
  expect(fast).toEqual(verify(JSON.parse(text), trust));
  expect(verifyJson(new TextEncoder().encode(text), trust)).toEqual(fast);
  return fast.verdict;
}

/** Every path to a scalar or container inside the events. */
function pathsIn(node: Tree, path: number[] = []): number[][] {
  const children =
    node.kind === 'array'
      ? node.items
      : node.kind === 'object'
        ? node.members.map(([, value]) => value)
        : [];
  return [path, ...children.flatMap((child, i) => pathsIn(child, [...path, i]))];
}

/** `node` with the value at `path` replaced by `value`. */
function replaced(node: Tree, path: readonly number[], value: Tree): Tree {
  if (path.length === 0) return value;
  const [at, ...rest] = path as [number, ...number[]];
  if (node.kind === 'array')
    return {
      kind: 'array',
      items: node.items.map((item, i) => (i === at ? replaced(item, rest, value) : item)),
    };
  if (node.kind === 'object')
    return {
      kind: 'object',
      members: node.members.map(([name, v], i) =>
        i === at ? ([name, replaced(v, rest, value)] as const) : ([name, v] as const),
      ),
    };
  return node;
}

const eventsIndex = tree.kind === 'object' ? tree.members.findIndex(([n]) => n === 'events') : -1;
const eventPaths = pathsIn(tree).filter((p) => p[0] === eventsIndex && p.length > 2);

describe('verifyJson fast path', () => {
  it('keeps the record valid however it is written', () => {
    expect(verdictAgreeing(JSON.stringify(record))).toBe('valid');
    expect(verdictAgreeing(JSON.stringify(record, null, 2))).toBe('valid');
    fc.assert(
      fc.property(fc.constantFrom(0.01, 0.05, 0.2), fc.gen(), (rate, g) => {
        expect(verdictAgreeing(writeJson(tree, rate, randomOf(g)))).toBe('valid');
      }),
      { numRuns: 200 },
    );
  });

  it('agrees with verify on any value changed inside the events, however written', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...eventPaths),
        treeOf(anyString, 2),
        fc.constantFrom(0, 0, 0.02),
        fc.gen(),
        (path, value, rate, g) => {
          verdictAgreeing(writeJson(replaced(tree, path, value), rate, randomOf(g)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees with verify when events are removed, duplicated or swapped in the text', () => {
    const events = record.events.map((event) => JSON.stringify(event));
    const write = (list: string[]): string =>
      JSON.stringify({ ...record, events: [] }).replace(
        '"events":[]',
        `"events":[${list.join(',')}]`,
      );
    expect(verdictAgreeing(write(events))).toBe('valid');
    expect(verdictAgreeing(write(events.slice(1)))).toBe('invalid');
    expect(verdictAgreeing(write([...events, events[0] as string]))).toBe('invalid');
    expect(
      verdictAgreeing(write([events[1] as string, events[0] as string, ...events.slice(2)])),
    ).toBe('invalid');
  });
});
