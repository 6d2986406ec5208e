import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical } from '@runback/canonical';
import { NOT_PLAIN, plainCopy, plainSnapshot } from './plain-copy.js';

/** What JSON makes of a value: the copy plainCopy must equal whenever it gives one. */
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** Member names plainCopy leaves to the JSON round trip by design (see plain-copy.ts). */
const hasRoundTripMember = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (Array.isArray(value)
    ? value.some(hasRoundTripMember)
    : Object.keys(value).some((key) => key === '__proto__' || key === 'toJSON') ||
      Object.values(value).some(hasRoundTripMember));

describe('plainCopy', () => {
  it('equals the JSON round trip of any JSON value, member order included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = plainCopy(value);
        if (hasRoundTripMember(value)) {
          // `__proto__` and `toJSON` members are refused so the caller takes the round trip.
          expect(copy).toBe(NOT_PLAIN);
          return;
        }
        expect(copy).not.toBe(NOT_PLAIN);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        expect(copy).toStrictEqual(viaJson(value));
      }),
    );
  });

  it('gives the JSON round trip or NOT_PLAIN for anything, never another copy', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withNullPrototype: true,
          withSparseArray: true,
          withTypedArray: true,
        }),
        (value) => {
          const copy = plainCopy(value);
          if (copy === NOT_PLAIN) return;
          expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        },
      ),
    );
  });

  it('does not share objects with the source: mutating the source leaves the copy', () => {
    const source = { a: [1, { b: 2 }], c: { d: 'x' } };
    const copy = plainCopy(source) as typeof source;
    (source.a[1] as { b: number }).b = 3;
    source.c.d = 'y';
    expect(copy).toStrictEqual({ a: [1, { b: 2 }], c: { d: 'x' } });
  });

  it('copies as JSON does: undefined, function and symbol members left out, array items null, -0 as 0, holes as null', () => {
    const holey: unknown[] = [];
    holey.length = 1; // a hole
    const source = {
      holes: holey,
      u: undefined,
      f: () => 1,
      s: Symbol('s'),
      list: [undefined, () => 1, -0, null, 1],
      z: -0,
    };
    const copy = plainCopy(source);
    expect(copy).toStrictEqual(viaJson(source));
    expect(Object.is((copy as { z: number }).z, 0)).toBe(true);
  });

  it('keeps member order, integer-like names first as the engine enumerates them', () => {
    const copy = plainCopy({ b: 1, 10: 'ten', a: 2, 2: 'two' });
    expect(Object.keys(copy as object)).toEqual(['2', '10', 'b', 'a']);
  });

  it('answers NOT_PLAIN for what JSON writes another way or not at all', () => {
    for (const value of [
      { n: Number.NaN },
      { n: Infinity },
      { b: 1n },
      { d: new Date(0) },
      { toJSON: () => 1 },
      JSON.parse('{"__proto__":{"x":1}}') as unknown,
      [new Map()],
      { boxed: new String('s') },
    ]) {
      expect(plainCopy(value)).toBe(NOT_PLAIN);
    }
  });

  it('hands a cycle or deep nesting to the general path instead of overflowing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(plainCopy(cyclic)).toBe(NOT_PLAIN);
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(plainCopy(deep)).toBe(NOT_PLAIN);
  });
});

describe('plainSnapshot', () => {
  /** JSON objects whose names come in any order, integer-like and escaped ones included. */
  const { json } = fc.letrec((tie) => ({
    json: fc.oneof(
      { depthSize: 'small' },
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('json'), { maxLength: 5 }),
      fc.dictionary(
        fc.oneof(
          fc.string({ maxLength: 6 }),
          fc.string({ unit: 'binary', maxLength: 4 }),
          fc.nat({ max: 30 }).map(String),
          fc.constantFrom('a', 'B', '_hash', 'é', '\ud800', '\u2028', '"q"', '1a', '01'),
        ),
        tie('json'),
        { maxKeys: 6 },
      ),
    ),
  }));

  it('writes the copy as JSON.stringify and canonical() do, from its one walk', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(json), fc.dictionary(fc.string(), json)), (value) => {
        const snap = plainSnapshot(value);
        if (hasRoundTripMember(value)) {
          expect(snap).toBe(NOT_PLAIN);
          return;
        }
        if (snap === NOT_PLAIN) throw new Error('expected a snapshot of plain data');
        expect(snap.stored).toBe(JSON.stringify(value));
        expect(snap.canonical).toBe(canonical(value));
        expect(snap.copy).toStrictEqual(viaJson(value));
      }),
      { numRuns: 500 },
    );
  });

  it('writes what JSON writes for omitted members, holes, -0 and integer-like names', () => {
    const holey: unknown[] = [1, undefined, () => 0];
    holey[4] = -0; // index 3 is a hole
    const source: Record<string, unknown> = {
      b: holey,
      10: 'ten',
      a: undefined,
      2: { z: 1, y: 'é' },
    };
    const snap = plainSnapshot(source);
    if (snap === NOT_PLAIN) throw new Error('expected a snapshot of plain data');
    expect(snap.stored).toBe('{"2":{"z":1,"y":"é"},"10":"ten","b":[1,null,null,null,0]}');
    expect(snap.canonical).toBe('{"10":"ten","2":{"y":"é","z":1},"b":[1,null,null,null,0]}');
    expect(snap.canonical).toBe(canonical(source));
  });
});
