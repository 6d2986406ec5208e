import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallTable, RecordedCassette, type CallFacts, type RecordedCall } from './cassette.js';

const hex = (n: number) => n.toString(16).padStart(64, '0');

/** A table over `facts` whose events are `{at: index}` and outputs `index * 10`. */
function table(facts: readonly CallFacts[]): CallTable {
  return new CallTable(facts, { event: (i) => ({ at: i }), output: (i) => i * 10 });
}

describe('CallTable and RecordedCassette', () => {
  it('reads each call back as it was indexed, in seq order', () => {
    const facts: CallFacts[] = [
      { index: 0, seq: 2, kind: 'tool', name: 'lookup', key: hex(0xabc) },
      { index: 1, seq: 1, kind: 'now', name: 'now', key: 'now' },
      { index: 3, seq: 'x', kind: 'llm', name: 'gpt', key: 'f'.repeat(64) },
    ];
    const calls = new RecordedCassette(table(facts)).calls;
    expect(calls.map((c) => [c.index, c.seq, c.kind, c.name, c.key, c.event, c.output])).toEqual([
      [1, 1, 'now', 'now', 'now', { at: 1 }, 10],
      [0, 2, 'tool', 'lookup', hex(0xabc), { at: 0 }, 0],
      [3, NaN, 'llm', 'gpt', 'f'.repeat(64), { at: 3 }, 30],
    ]);
  });

  it('serves equal keys first-in, first-out, apart by kind, and misses a key one digit off', () => {
    const key = hex(7);
    const cassette = new RecordedCassette(
      table([
        { index: 0, seq: 0, kind: 'llm', name: 'm', key },
        { index: 1, seq: 1, kind: 'tool', name: 't', key },
        { index: 2, seq: 2, kind: 'llm', name: 'm', key },
        { index: 3, seq: 3, kind: 'llm', name: 'm', key: key.toUpperCase().replace('0', 'A') },
      ]),
    );
    expect(cassette.takeByKey('llm', hex(8))).toBeUndefined();
    expect(cassette.takeByKey('fetch', key)).toBeUndefined();
    expect(cassette.takeByKey('llm', key)?.index).toBe(0);
    expect(cassette.takeByKey('llm', key)?.index).toBe(2);
    expect(cassette.takeByKey('llm', key)).toBeUndefined();
    expect(cassette.takeByKey('tool', key)?.index).toBe(1);
    expect(cassette.takeByKey('llm', key.toUpperCase().replace('0', 'A'))?.index).toBe(3);
    expect(cassette.unserved()).toEqual([]);
  });

  it('behaves as a list of calls scanned in seq order (property)', () => {
    const fact = fc.record({
      seq: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant('late')),
      kind: fc.constantFrom('llm', 'tool', 'now'),
      name: fc.constantFrom('a', 'b'),
      key: fc.oneof(fc.integer({ min: 0, max: 3 }).map(hex), fc.constantFrom('now', 'k')),
    });
    const op = fc.record({
      how: fc.constantFrom('key', 'position', 'call', 'nearest'),
      kind: fc.constantFrom('llm', 'tool', 'now', 'fetch'),
      name: fc.constantFrom('a', 'b', 'c'),
      key: fc.oneof(fc.integer({ min: 0, max: 4 }).map(hex), fc.constantFrom('now', 'k', 'z')),
      pick: fc.nat(),
    });
    fc.assert(
      fc.property(fc.array(fact, { maxLength: 30 }), fc.array(op, { maxLength: 60 }), (fs, ops) => {
        const facts = fs.map((f, index) => ({ ...f, index }));
        const cassette = new RecordedCassette(table(facts));
        const seqOf = (f: CallFacts) => (typeof f.seq === 'number' ? f.seq : Infinity);
        const model = [...facts].sort((a, b) => seqOf(a) - seqOf(b) || a.index - b.index);
        expect(cassette.calls.map((c) => c.index)).toEqual(model.map((f) => f.index));
        const used = new Set<number>();
        const first = (test: (f: CallFacts) => boolean) =>
          model.find((f) => !used.has(f.index) && test(f));
        for (const o of ops) {
          let got: RecordedCall | undefined | boolean;
          let want: CallFacts | undefined | boolean;
          if (o.how === 'call') {
            const call = cassette.calls[o.pick % Math.max(1, cassette.calls.length)];
            if (call === undefined) continue;
            want = !used.has(call.index);
            got = cassette.takeCall(call);
            used.add(call.index);
            expect(got).toBe(want);
            continue;
          }
          if (o.how === 'nearest') {
            want =
              first((f) => f.kind === o.kind && f.name === o.name) ??
              first((f) => f.kind === o.kind);
            expect(cassette.nearest(o.kind, o.name)?.index).toBe(want?.index);
            continue;
          }
          want =
            o.how === 'key'
              ? first((f) => f.kind === o.kind && f.key === o.key)
              : first((f) => f.kind === o.kind && f.name === o.name);
          got =
            o.how === 'key'
              ? cassette.takeByKey(o.kind, o.key)
              : cassette.takeByPosition(o.kind, o.name);
          expect(got?.index).toBe(want?.index);
          if (want !== undefined) used.add(want.index);
        }
        expect(cassette.unserved().map((c) => c.index)).toEqual(
          model.filter((f) => !used.has(f.index)).map((f) => f.index),
        );
      }),
    );
  });

  it('gives every cassette of one table its own served calls', () => {
    const t = table([{ index: 0, seq: 0, kind: 'tool', name: 't', key: hex(1) }]);
    const a = new RecordedCassette(t);
    const b = new RecordedCassette(t);
    expect(a.takeByKey('tool', hex(1))?.index).toBe(0);
    expect(a.takeByKey('tool', hex(1))).toBeUndefined();
    expect(b.takeByKey('tool', hex(1))?.index).toBe(0);
  });

  it('indexes a parsed record the same way', () => {
    const events = [
      { type: 'run', phase: 'start', seq: 0 },
      { type: 'env', kind: 'now', key: 'now', seq: 1, output: 5 },
    ];
    const [call] = new RecordedCassette(events).calls;
    expect([call?.index, call?.kind, call?.key, call?.output, call?.event]).toEqual([
      1,
      'now',
      'now',
      5,
      events[1],
    ]);
  });
});
