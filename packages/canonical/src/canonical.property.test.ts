// Properties of the canonical form (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, canonicalOrder, canonicalWithout } from './canonical.js';

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
  for (const [k, v] of order)
    Object.defineProperty(out, k, {
      value: permuted(v, seed + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
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
        const inText = [...text.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map(
          (m) => JSON.parse(`"${m[1]}"`) as string,
        );
        expect(inText).toEqual([...keys].sort());
      }),
      { numRuns: 200 },
    );
  });
});

/**
 * The algorithm of docs/spec.md §2, written as plainly as possible, as an independent reference for the
 * optimized paths (sorted copy + native stringify, string building, explicit stack).
 */
function reference(v: unknown): string | undefined {
  if (
    v !== null &&
    typeof v === 'object' &&
    typeof (v as { toJSON?: unknown }).toJSON === 'function'
  ) {
    v = (v as { toJSON: () => unknown }).toJSON();
  }
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map((x) => reference(x) ?? 'null').join(',') + ']';
  const parts: string[] = [];
  for (const k of Object.keys(v).sort()) {
    const text = reference((v as Record<string, unknown>)[k]);
    if (text !== undefined) parts.push(JSON.stringify(k) + ':' + text);
  }
  return '{' + parts.join(',') + '}';
}

describe('canonical agrees with the reference algorithm', () => {
  // Member names that exercise every path: integer-like names (hoisted by engines), names
  // starting with a digit, __proto__, escapes, surrogates (paired and lone), and plain names.
  const name = fc.oneof(
    fc.constantFrom(
      '0',
      '1',
      '10',
      '2',
      '007',
      '1a',
      '4294967295',
      '__proto__',
      'toJSON',
      'a',
      'B',
      '',
      '"',
      '\\',
      '\u0000',
      '\ud800',
      '\u{1f600}',
      '\ufb33',
      'é',
    ),
    fc.string({ maxLength: 4 }),
  );
  const leaf = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
  );
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('tree'), { maxLength: 4 }),
    object: fc.array(fc.tuple(name, tie('tree')), { maxLength: 5 }).map((entries) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries)
        Object.defineProperty(out, k, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }),
  }));

  it('on trees with awkward names and values', () => {
    fc.assert(
      fc.property(tree, (value) => {
        expect(canonical(value)).toBe(reference(value) ?? 'null');
      }),
      { numRuns: 1000 },
    );
  });

  it('on values parsed from JSON text (own __proto__ members included)', () => {
    fc.assert(
      fc.property(tree, (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
        expect(canonical(parsed)).toBe(reference(parsed) ?? 'null');
      }),
      { numRuns: 500 },
    );
  });

  it('on values already in canonical order (the native-stringify path)', () => {
    fc.assert(
      fc.property(tree, fc.string({ maxLength: 70 }), (value, hash) => {
        const ordered = canonicalOrder(value);
        expect(canonical(ordered)).toBe(reference(value) ?? 'null');
        // An event-like object with _hash sorting first: cut from the native text.
        const event = canonicalOrder({ _hash: hash, body: value, seq: 1 });
        expect(canonicalWithout(event, '_hash')).toBe(reference({ body: value, seq: 1 }));
        expect(canonicalWithout({ ...event, _hash: 7 }, '_hash')).toBe(
          reference({ body: value, seq: 1 }),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('on awkward trees nested across the recursion limit', () => {
    // Wrappers that take each path: in order, out of order, and refusing a sorted copy.
    const wrappers = [
      (v: unknown) => [v, 1],
      (v: unknown) => ({ a: 1, w: v }),
      (v: unknown) => ({ w: v, a: 1 }),
      (v: unknown) => ({ '!': v, '0': 1 }),
    ];
    fc.assert(
      fc.property(
        fc.array(tree, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 600, max: 700 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }),
        (leaves, depth, picks) => {
          let value: unknown = leaves;
          for (let i = 0; i < depth; i++) {
            value = (wrappers[picks[i % picks.length] as number] as (v: unknown) => unknown)(value);
            if (i % 97 === 0) value = [value, ...leaves];
          }
          expect(canonical(value)).toBe(reference(value) ?? 'null');
          expect(canonicalWithout({ _hash: 'h', deep: value }, '_hash')).toBe(
            reference({ deep: value }),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('on toJSON results that are objects, primitives or nothing', () => {
    const withToJSON = (result: unknown) => ({ toJSON: () => result });
    const value = {
      a: withToJSON({ z: 1, y: withToJSON(2) }),
      b: [withToJSON(undefined), withToJSON('s')],
      c: withToJSON(undefined),
    };
    expect(canonical(value)).toBe(reference(value));
    expect(canonical(value)).toBe('{"a":{"y":2,"z":1},"b":[null,"s"]}');
  });
});
