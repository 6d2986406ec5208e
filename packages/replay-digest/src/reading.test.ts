// The two readings of an llm / tool entry's output (docs/spec.md §4.1): they agree except when
// error and output are both set or both null/absent, and the published one is the default.
import { canonical, canonicalOrder, sha256Hex } from '@runback/canonical';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CassetteBuilder, cassetteDigest, cassetteDigestsByReading } from './cassette.js';
import { oracleEntryOf, oracleEntryText, type OutputReading } from './oracle-entry.js';

const err = { name: 'Timeout', message: 'slow' };
const tool = (members: Record<string, unknown>): Record<string, unknown> => ({
  seq: 0,
  type: 'tool',
  tool_name: 't',
  input: { a: 1 },
  ...members,
});
const key = sha256Hex('tool:t:{"a":1}');
const outputOf = (event: unknown, reading: OutputReading): unknown =>
  oracleEntryOf(event, reading)?.output;

describe('output readings', () => {
  it('read a failed call that also stored an output differently', () => {
    const event = tool({ output: { partial: true }, error: err });
    expect(outputOf(event, 'seed')).toEqual({ partial: true });
    expect(outputOf(event, 'published')).toEqual({ error: err });
  });

  it('read a call that returned nothing differently: published has no output member', () => {
    const absent = tool({});
    expect(outputOf(absent, 'seed')).toEqual({ error: undefined });
    expect(oracleEntryText(absent, 'published')).toBe(`{"key":"${key}","kind":"tool"}`);
    expect(oracleEntryText(absent, 'seed')).toBe(`{"key":"${key}","kind":"tool","output":{}}`);
    const nulls = tool({ output: null, error: null });
    expect(oracleEntryText(nulls, 'published')).toBe(
      `{"key":"${key}","kind":"tool","output":null}`,
    );
    expect(oracleEntryText(nulls, 'seed')).toBe(
      `{"key":"${key}","kind":"tool","output":{"error":null}}`,
    );
  });

  it('treat only a truthy error as an error in the published reading', () => {
    for (const falsy of [false, 0, '', null]) {
      expect(outputOf(tool({ output: 'x', error: falsy }), 'published')).toBe('x');
    }
    expect(outputOf(tool({ output: 'x', error: 'boom' }), 'published')).toEqual({ error: 'boom' });
  });

  it('agree whenever exactly one of output and a truthy error is set', () => {
    const value = fc.jsonValue().filter((v) => v !== null);
    fc.assert(
      fc.property(fc.boolean(), value, (failed, v) => {
        const event = failed ? tool({ output: null, error: { message: v } }) : tool({ output: v });
        expect(oracleEntryText(event, 'seed')).toBe(oracleEntryText(event, 'published'));
      }),
    );
  });

  it('default to the published reading in every entry point, in any member order', () => {
    const events = [tool({ seq: 0 }), tool({ seq: 1, output: 2, error: err })];
    const published = cassetteDigest(events, undefined, 'published');
    expect(cassetteDigest(events)).toEqual(published);
    expect(cassetteDigest(events.map(canonicalOrder))).toEqual(published);
    expect(cassetteDigest(events, undefined, 'seed').digest).not.toBe(published.digest);
    const builder = new CassetteBuilder();
    const seed = new CassetteBuilder('seed');
    for (const event of events) {
      builder.add(event);
      seed.add(event);
    }
    expect(builder.digest).toBe(published.digest);
    expect(seed.digest).toBe(cassetteDigest(events, undefined, 'seed').digest);
    expect(oracleEntryText(events[1])).toBe(canonical(oracleEntryOf(events[1])));
  });
});

describe('cassetteDigestsByReading', () => {
  const anyEvent = fc.oneof(
    fc.record({
      output: fc.oneof(fc.constant(undefined), fc.constant(null), fc.jsonValue()),
      error: fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant(''), fc.jsonValue()),
    }),
    fc.record({ type: fc.constant('env'), kind: fc.constant('now'), key: fc.constant('now') }),
    fc.record({ type: fc.constant('run') }),
  );

  it('equals cassetteDigest under each reading, on any events', () => {
    fc.assert(
      fc.property(fc.array(anyEvent, { maxLength: 8 }), (members) => {
        const events = members.map((m, seq) => tool({ seq, ...m }));
        const both = cassetteDigestsByReading(events);
        expect(both.published).toEqual(cassetteDigest(events, undefined, 'published'));
        expect(both.seed).toEqual(cassetteDigest(events, undefined, 'seed'));
        if (!both.diverged) expect(both.seed).toEqual(both.published);
      }),
    );
  });
});
