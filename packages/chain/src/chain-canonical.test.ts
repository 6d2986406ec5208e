import { canonical, canonicalWithout, sha256Hex } from '@runback/canonical';
import { describe, expect, it } from 'vitest';
import { eventHash, eventHashOfCanonical } from './chain.js';

describe('eventHashOfCanonical', () => {
  const event = { _hash: 'stored', seq: 1, type: 'tool', input: { b: 2, a: 1 } };

  it('is eventHash for the canonical text of the event without _hash', () => {
    const text = canonicalWithout(event, '_hash');
    expect(text).toBe('{"input":{"a":1,"b":2},"seq":1,"type":"tool"}');
    expect(eventHashOfCanonical('', text)).toBe(eventHash('', event));
    const previous = sha256Hex('x');
    expect(eventHashOfCanonical(previous, text)).toBe(eventHash(previous, event));
    expect(eventHashOfCanonical(previous, text)).toBe(sha256Hex(previous + text));
  });

  it('hashes what it is given: a text with _hash is another event', () => {
    expect(eventHashOfCanonical('', canonical(event))).not.toBe(eventHash('', event));
  });
});
