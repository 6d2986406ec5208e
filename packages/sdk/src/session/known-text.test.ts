import { canonical } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalOf, eventCanonical, rememberText } from './known-text.js';
import { snapshot } from './snapshot.js';

describe('eventCanonical', () => {
  it('equals canonical() of the event, whatever its members, member order and snapshotted parts', () => {
    const member = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined), fc.constant(-0));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), member), fc.boolean(), (event, snap) => {
        const built: Record<string, unknown> = {};
        for (const [name, value] of Object.entries(event)) {
          built[name] =
            snap && typeof value === 'object' && value !== null ? snapshot(value, 'v') : value;
        }
        expect(eventCanonical(built)).toBe(canonical(built));
      }),
      { numRuns: 300 },
    );
  });

  it('reuses a remembered text for a snapshotted value', () => {
    const value = snapshot({ b: 1, a: [2] }, 'v') as object;
    expect(canonicalOf(value)).toBe('{"a":[2],"b":1}');
    const other = { x: 1 };
    rememberText(other, '"remembered"');
    expect(eventCanonical({ m: other })).toBe('{"m":"remembered"}');
  });
});
