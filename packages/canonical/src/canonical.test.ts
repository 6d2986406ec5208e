import { describe, expect, it } from 'vitest';
import { canonical, canonicalWithout } from './canonical.js';
import { CanonicalError } from './errors.js';

describe('canonical', () => {
  it('sorts members by UTF-16 code units, integer-like keys included', () => {
    expect(canonical({ b: 1, a: 2, 10: 'x', 2: 'y', A: 0 })).toBe(
      '{"10":"x","2":"y","A":0,"a":2,"b":1}',
    );
    // U+1F600 (surrogates D83D DE00) sorts before U+FB33 in UTF-16 order, after it in code points.
    expect(canonical({ '\ufb33': 1, '\u{1f600}': 2 })).toBe('{"\u{1f600}":2,"\ufb33":1}');
  });

  it('writes numbers in ECMAScript form, -0 as 0', () => {
    expect(canonical([-0, 0, 1e21, 1e-7, 0.1, 123456789012345680000, 5e-324])).toBe(
      '[0,0,1e+21,1e-7,0.1,123456789012345680000,5e-324]',
    );
  });

  it('omits undefined, function and symbol members; writes them as null in arrays and at the top', () => {
    expect(canonical({ a: undefined, b: () => 1, c: Symbol('s'), d: 1 })).toBe('{"d":1}');
    expect(canonical([undefined, () => 1, Symbol('s')])).toBe('[null,null,null]');
    expect(canonical(undefined)).toBe('null');
    // eslint-disable-next-line no-sparse-arrays
    expect(canonical([1, , 3])).toBe('[1,null,3]');
  });

  it('refuses non-finite numbers and BigInt with a located TypeError', () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      expect(() => canonical({ a: [1, { b: bad }] })).toThrow(TypeError);
    }
    try {
      canonical({ a: [1, { b: NaN }] });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CanonicalError);
      expect((err as CanonicalError).code).toBe('CANONICAL_NON_FINITE_NUMBER');
      expect((err as CanonicalError).pointer).toBe('/a/1/b');
      expect((err as Error).message).toBe('expected a finite number, got NaN at /a/1/b');
    }
    expect(() => canonical({ n: 1n })).toThrow(
      /expected a JSON number, got a BigInt \(1n\) at \/n/,
    );
  });

  it('keeps an own __proto__ member as data', () => {
    const parsed = JSON.parse('{"__proto__":{"x":1},"a":2}') as object;
    expect(canonical(parsed)).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('escapes lone surrogates and control characters as JSON.stringify does', () => {
    expect(canonical(['\ud800', '\udc00x', '\u0007', '\u2028', '</script>'])).toBe(
      '["\\ud800","\\udc00x","\\u0007","\u2028","</script>"]',
    );
    expect(canonical({ '\udfff': 1 })).toBe('{"\\udfff":1}');
  });

  it('follows toJSON and unboxes wrappers like JSON.stringify', () => {
    const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(canonical({ at: d })).toBe('{"at":"2026-01-02T03:04:05.006Z"}');
    expect(canonical([new Number(3), new String('s'), new Boolean(false)])).toBe('[3,"s",false]');
    expect(canonical({ toJSON: (key: string) => ({ key }) })).toBe('{"key":""}');
  });

  it('serializes input deeper than the call stack allows', () => {
    let deep: unknown = { leaf: [1, undefined, 'x'] };
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep, j: i };
    const text = canonical(deep);
    expect(text.length).toBeGreaterThan(100_000);
    // Cross-check the structure against JSON.parse on a mid-depth sample.
    let shallow: unknown = { b: 1, a: [true] };
    for (let i = 0; i < 900; i++) shallow = { z: shallow, a: i };
    expect(JSON.parse(canonical(shallow))).toEqual(shallow);
  });

  it('locates a problem far below the recursion limit in time linear in the depth', () => {
    let deep: unknown = { bad: NaN };
    for (let i = 0; i < 50_000; i++) deep = i % 2 === 0 ? [1, deep] : { k: deep };
    try {
      canonical(deep);
      expect.unreachable();
    } catch (err) {
      expect((err as CanonicalError).code).toBe('CANONICAL_NON_FINITE_NUMBER');
      expect((err as CanonicalError).pointer).toBe('/k/1'.repeat(25_000) + '/bad');
    }
  });

  it('detects cycles instead of looping', () => {
    const a: Record<string, unknown> = { x: 1 };
    a['self'] = { back: a };
    expect(() => canonical(a)).toThrow(/expected an acyclic value/);
    try {
      canonical(a);
    } catch (err) {
      expect((err as CanonicalError).code).toBe('CANONICAL_CYCLE');
      expect((err as CanonicalError).pointer).toBe('/self/back');
    }
  });
});

describe('canonicalWithout', () => {
  it('omits exactly one top-level member without copying', () => {
    const event = { seq: 1, _hash: 'abc', nested: { _hash: 'kept' } };
    expect(canonicalWithout(event, '_hash')).toBe('{"nested":{"_hash":"kept"},"seq":1}');
    expect(event._hash).toBe('abc');
  });

  it('rejects non-objects with a TypeError', () => {
    expect(() => canonicalWithout([], '_hash')).toThrow(TypeError);
    expect(() => canonicalWithout(null as unknown as object, '_hash')).toThrow(
      /expected a non-array object, got null/,
    );
  });

  it('locates problems relative to the object', () => {
    expect(() => canonicalWithout({ a: { b: Infinity }, _hash: NaN }, '_hash')).toThrow(
      /at \/a\/b$/,
    );
  });
});
