// Canonical form is linear in the size of its input at every depth (docs/spec.md §2). Work is
// counted, not timed: every container is a counting proxy, and the reads per member must stay
// at a small constant whatever the shape or the nesting depth. A serializer that retries a
// fast path at every level does work proportional to depth × size (hundreds of reads per
// member for 505-deep values).
import { describe, expect, it } from 'vitest';
import { canonical, canonicalWithout } from '../src/canonical.js';
import { counted } from './counting-proxy.js';
import { nested, type Shape } from './shapes.js';

// A linear serializer reads each member a few times (a check walk, a copy, the writing walk);
// measured at 2–4. Retrying per level measured 60–530 on these shapes.
const READS_PER_MEMBER = 8;
const SHAPES: Shape[] = ['disordered', 'integer-names', 'ordered-until-leaf'];

describe('canonical does linear work at every depth', () => {
  for (const shape of SHAPES) {
    it(`on ${shape} values 10, 300, 505 and 2,000 deep`, () => {
      for (const depth of [10, 300, 505, 2000]) {
        const plain = Array.from({ length: 4 }, (_, seq) => ({ seq, input: nested(shape, depth) }));
        const { value, reads, members } = counted(plain);
        const text = canonical(value);
        expect(reads()).toBeGreaterThan(members); // the proxies do see the reads
        expect(reads() / members, `${shape} at depth ${depth}`).toBeLessThan(READS_PER_MEMBER);
        expect(text).toBe(canonical(plain));
      }
    });
  }

  // The work per event is what this bounds, so a few dozen events show it as well as the
  // 1,000 of the bench record (bench/nesting.js), at a cost the proxies keep affordable.
  it('on tool events with 505-deep inputs, hashed event by event', () => {
    const events = Array.from({ length: 40 }, (_, seq) => ({
      _hash: 'h'.repeat(64),
      seq,
      type: 'tool',
      tool_name: 'lookup',
      input: nested(seq % 2 === 0 ? 'disordered' : 'integer-names', 505),
      output: { ok: true },
    }));
    const { value, reads, members } = counted(events);
    for (const event of value as object[]) canonicalWithout(event, '_hash');
    expect(reads() / members).toBeLessThan(READS_PER_MEMBER);
  });

  it('calls each toJSON a bounded number of times, however deep the toJSON results nest', () => {
    let calls = 0;
    const depth = 1000;
    let value: unknown = 'bottom';
    let expected = '"bottom"';
    for (let i = 0; i < depth; i++) {
      const next = value;
      // A fresh object at every call; its integer-like name sorts after the nested member, so
      // a copying fast path runs all the way down before it is refused.
      value = { toJSON: () => (calls++, { '!': next, '0': i }) };
      expected = `{"!":${expected},"0":${i}}`;
    }
    expect(canonical({ top: value })).toBe(`{"top":${expected}}`);
    expect(calls / depth).toBeLessThanOrEqual(3);
  });
});
