// Properties of the canonical form (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical } from './canonical.js';

/** Rebuilds every object of a JSON value with its members inserted in a permuted order. */
function permuted(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => permuted(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const order = entries
    .map((e, i) => ({ e, k: Math.sin(seed * 9301 + i * 49297) }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.e);
  const out: Record<string, unknown> = {};
  for (const [k, v] of order) Object.defineProperty(out, k, { value: permuted(v, seed + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

const json = fc.jsonValue({ maxDepth: 6 });

describe('canonical form properties', () => {
  it('is independent of member insertion order', () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        expect(canonical(permuted(value, seed))).toBe(canonical(value));
      }),
      { numRuns: 300 },
    );
  });

  it('is valid JSON that parses back to an equal value', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonical(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('is a fixed point: canonical(parse(canonical(v))) === canonical(v)', () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonical(value);
        expect(canonical(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('has no insignificant whitespace and sorted keys at every level', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer()), (obj) => {
        const text = canonical(obj);
        const keys = Object.keys(JSON.parse(text) as object);
        // Integer-like keys are re-hoisted by JSON.parse, so compare against the text order.
        const inText = [...text.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
        expect(inText).toEqual([...keys].sort());
      }),
      { numRuns: 200 },
    );
  });
});
