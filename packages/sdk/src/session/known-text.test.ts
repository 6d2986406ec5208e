import { canonical } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalOf, eventTexts, rememberTexts } from './known-text.js';
import { snapshot } from './snapshot.js';

const member = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined), fc.constant(-0));

/** An event of arbitrary members, objects among them snapshotted when `snap`. */
function build(event: Record<string, unknown>, snap: boolean): Record<string, unknown> {
  const built: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(event)) {
    built[name] =
      snap && typeof value === 'object' && value !== null ? snapshot(value, 'v') : value;
  }
  return built;
}

describe('eventTexts', () => {
  it('canonical equals canonical() of the event, whatever its members, member order and snapshotted parts', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), member), fc.boolean(), (event, snap) => {
        const built = build(event, snap);
        expect(eventTexts(built).canonical).toBe(canonical(built));
      }),
      { numRuns: 300 },
    );
  });

  it('stored holds the same data, each member value written in the order it was given', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), member), fc.boolean(), (event, snap) => {
        const built = build(event, snap);
        const stored = JSON.parse(eventTexts(built).stored) as Record<string, unknown>;
        expect(canonical(stored)).toBe(canonical(built));
        for (const [name, value] of Object.entries(built)) {
          if (value !== undefined) expect(JSON.stringify(stored[name])).toBe(JSON.stringify(value));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the program order of a snapshotted value and sorts it only for the canonical text', () => {
    const value = snapshot({ zeta: 1, alpha: { y: 2, b: 3 } }, 'v');
    expect(Object.keys(value as object)).toEqual(['zeta', 'alpha']);
    const texts = eventTexts({ type: 'tool', output: value });
    expect(texts.canonical).toBe('{"output":{"alpha":{"b":3,"y":2},"zeta":1},"type":"tool"}');
    expect(texts.stored).toBe('{"output":{"zeta":1,"alpha":{"y":2,"b":3}},"type":"tool"}');
  });

  it('reuses remembered texts for a snapshotted value', () => {
    const value = snapshot({ b: 1, a: [2] }, 'v') as object;
    expect(canonicalOf(value)).toBe('{"a":[2],"b":1}');
    const other = { x: 1 };
    rememberTexts(other, '"canonical"', '"stored"');
    expect(eventTexts({ m: other })).toEqual({
      canonical: '{"m":"canonical"}',
      stored: '{"m":"stored"}',
      firstName: 'm',
    });
  });
});
