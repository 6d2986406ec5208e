import { EMPTY_SHA256, canonical, canonicalWithout, sha256Hex } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChainBuilder } from './chain-builder.js';
import { GENESIS_HASH, HASH_MEMBER, eventHash } from './chain.js';
import { computeChain } from './compute-chain.js';

const events = [
  { seq: 0, type: 'run', phase: 'start', _hash: 'ignored' },
  { seq: 1, type: 'tool', tool_name: 'lookup', input: { id: 7 } },
  { seq: 2, type: 'run', phase: 'end', status: 'success' },
];

function sealed(list: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  const builder = new ChainBuilder();
  return list.map((e) => ({ ...e, _hash: builder.append(e) }));
}

describe('eventHash', () => {
  it('is sha256(previous + canonical(event without _hash)) with an empty-string seed', () => {
    const first = events[0] as object;
    const { _hash: _, ...rest } = events[0] as Record<string, unknown>;
    expect(eventHash(GENESIS_HASH, first)).toBe(sha256Hex(canonical(rest)));
    expect(eventHash('ab', first)).toBe(sha256Hex('ab' + canonical(rest)));
    expect(eventHash(GENESIS_HASH, first)).not.toBe(sha256Hex(EMPTY_SHA256 + canonical(rest)));
  });

  it('rejects values with no canonical form', () => {
    expect(() => eventHash('', { n: NaN })).toThrow(TypeError);
    expect(() => eventHash('', [])).toThrow(TypeError);
  });
});

describe('computeChain', () => {
  it('gives sha256("") as the digest of no events', () => {
    expect(computeChain([])).toEqual({
      hashes: [],
      contentDigest: EMPTY_SHA256,
      firstMismatch: null,
    });
  });

  it('accepts a correctly sealed chain and names the first edited event', () => {
    const chain = sealed(events);
    const ok = computeChain(chain);
    expect(ok.firstMismatch).toBeNull();
    expect(ok.contentDigest).toBe(chain[2]?.['_hash']);
    const edited = chain.map((e) => ({ ...e }));
    (edited[1] as Record<string, unknown>)['input'] = { id: 8 };
    const bad = computeChain(edited);
    expect(bad.firstMismatch).toBe(1);
    expect(bad.contentDigest).not.toBe(ok.contentDigest);
  });

  it('hashes in array order, not seq order', () => {
    const chain = sealed(events);
    const swapped = [chain[1], chain[0], chain[2]] as unknown[];
    expect(computeChain(swapped).firstMismatch).toBe(0);
  });

  it('names a non-object event', () => {
    expect(() => computeChain([{}, 3])).toThrow(/expected event 1 to be an object, got number/);
  });
});

describe('ChainBuilder', () => {
  it('matches computeChain and tracks head, digest and count', () => {
    const builder = new ChainBuilder();
    expect(builder.head).toBe('');
    expect(builder.contentDigest).toBe(EMPTY_SHA256);
    const hashes = events.map((e) => builder.append(e));
    expect(builder.count).toBe(3);
    expect(builder.head).toBe(hashes[2]);
    expect(computeChain(events).hashes).toEqual(hashes);
  });

  it('continues a chain from a known head and count, as one builder would', () => {
    const whole = new ChainBuilder();
    for (const e of events) whole.append(e);
    const first = new ChainBuilder();
    first.append(events[0] as object);
    const rest = new ChainBuilder(first.head, first.count);
    for (const e of events.slice(1)) rest.append(e);
    expect(rest.head).toBe(whole.head);
    expect(rest.count).toBe(3);
    expect(rest.contentDigest).toBe(whole.contentDigest);
  });

  it('appendCanonical gives the hash append gives for the same event', () => {
    const a = new ChainBuilder();
    const b = new ChainBuilder();
    // The text appendCanonical takes leaves _hash out, as append does (events[0] has one).
    for (const e of events)
      expect(b.appendCanonical(canonicalWithout(e, HASH_MEMBER))).toBe(a.append(e));
    expect(b.contentDigest).toBe(a.contentDigest);
    expect(() => b.appendCanonical('[1]')).toThrow(TypeError);
  });

  it('rejects a head that is not a hash, and a count that contradicts the head', () => {
    expect(() => new ChainBuilder('xyz')).toThrow(TypeError);
    expect(() => new ChainBuilder('ab'.repeat(32), 0)).toThrow(/count: expected/);
    expect(() => new ChainBuilder('', 2)).toThrow(/count: expected/);
    expect(() => new ChainBuilder('ab'.repeat(32), 1.5)).toThrow(TypeError);
  });
});

describe('chain properties', () => {
  const eventArb = fc.record({
    seq: fc.nat(),
    type: fc.constantFrom('llm', 'tool', 'env'),
    data: fc.jsonValue({ maxDepth: 3 }),
  });

  it('any single change to any event breaks the chain at exactly that index', () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.string(),
        (list, at, marker) => {
          const chain = sealed(list);
          const i = at % chain.length;
          const edited = chain.map((e) => ({ ...e }));
          const target = edited[i] as Record<string, unknown>;
          const before = canonical({ ...target, _hash: undefined });
          target['tampered'] = marker;
          fc.pre(canonical({ ...target, _hash: undefined }) !== before);
          const result = computeChain(edited);
          expect(result.firstMismatch).toBe(i);
          expect(result.contentDigest).not.toBe(computeChain(chain).contentDigest);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('removing, duplicating or reordering events changes the content digest', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 2, maxLength: 10 }), fc.nat(), (list, at) => {
        const chain = sealed(list);
        const digest = computeChain(chain).contentDigest;
        const i = at % chain.length;
        const removed = chain.filter((_, j) => j !== i);
        expect(computeChain(removed).contentDigest).not.toBe(digest);
        const duplicated = [...chain.slice(0, i + 1), chain[i], ...chain.slice(i + 1)];
        expect(computeChain(duplicated).contentDigest).not.toBe(digest);
      }),
      { numRuns: 150 },
    );
  });
});
