import { canonical, canonicalWithout } from '@runback/canonical';
import { eventHash } from '@runback/chain';
import { describe, expect, it } from 'vitest';
import {
  CANONICAL_VALUES,
  HASH_NOT_FIRST,
  recordText,
  SPACED_EVENTS,
  UNPRINTED_NUMBERS,
  UNSORTED_EVENTS,
  UNWRITTEN_ESCAPES,
} from '../../test/support/event-forms.js';
import { sealedLoanRecord } from '../../test/support/fixtures.js';
import {
  expectCanonicalizedAgreement as expectAgreement,
  expectSameCanonicalizedReading as expectSameReading,
} from '../../test/support/canonicalized-agreement.js';
import { canonicalizeEvents as scanCanonicalEvents } from './canonicalized-events.js';

/** Whether the fast path offers the single event of `eventText` (and agrees if it does). */
function offered(eventText: string): boolean {
  return expectAgreement(recordText(eventText)) === 1;
}

/** Requires the fast path to offer each of these events. */
function accepts(...eventTexts: string[]): void {
  for (const text of eventTexts) expect(offered(text), text).toBe(true);
}

/**
 * Requires the fast path to decline the single event of each text, which the strict reader
 * rejects (with the same error whether or not it steps over the proven events).
 */
function declines(...eventTexts: string[]): void {
  for (const eventText of eventTexts) {
    const text = recordText(eventText);
    expect(scanCanonicalEvents(text)?.provenSpans().proven[0], eventText).toBe(0);
    expect(expectSameReading(text).ok, eventText).toBe(false);
  }
}

describe('canonicalizeEvents on records written by runback', () => {
  const record = sealedLoanRecord();
  const text = JSON.stringify(record);

  it('offers every event, each exactly the canonical text and hash the chain computes', () => {
    expect(expectAgreement(text)).toBe(record.events.length);
    const known = scanCanonicalEvents(text);
    expect(known?.count).toBe(record.events.length);
    const parsed = JSON.parse(text) as { events: Record<string, unknown>[] };
    let head = '';
    parsed.events.forEach((event, i) => {
      expect(known?.eventText(i)).toBe(canonicalWithout(event, '_hash'));
      head = eventHash(head, event);
      expect(known?.eventHash(i, i === 0 ? '' : (parsed.events[i - 1]?.['_hash'] as string))).toBe(
        head,
      );
      // The members the cassette reads are always offered, whatever their form.
      for (const name of ['request', 'response', 'input', 'output'])
        if (name in event) expect(known?.memberText(i, name)).toBe(canonical(event[name]));
    });
    // A hash asked for onto another head is not offered.
    expect(known?.eventHash(1, 'f'.repeat(64))).toBeUndefined();
  });

  it('grows its tables for records denser in events, members and containers than it guessed', () => {
    const wide = Array.from({ length: 300 }, (_, i) => `"k${300 - i}":{"v":[${i}]}`).join(' , ');
    const events = Array.from({ length: 200 }, (_, i) => `{"_hash":"${i}", ${wide}}`);
    expect(expectAgreement(recordText(...events))).toBe(200);
    expect(scanCanonicalEvents(recordText(...events))?.memberText(199, 'k7')).toBe('{"v":[293]}');
  });

  it('offers records in any member order, pretty-printed or not', () => {
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value as Record<string, unknown>)
                .reverse()
                .map(([k, v]) => [k, reversed(v)]),
            )
          : value;
    const foreign = reversed(record);
    expect(expectAgreement(JSON.stringify(foreign))).toBe(record.events.length);
    expect(expectAgreement(JSON.stringify(foreign, null, 2))).toBe(record.events.length);
    expect(expectAgreement(JSON.stringify(record, null, '\t'))).toBe(record.events.length);
    // The same chain whatever the form.
    const a = scanCanonicalEvents(text);
    const b = scanCanonicalEvents(JSON.stringify(foreign, null, 2));
    const last = record.events.length - 1;
    const previous = record.events[last - 1]?._hash ?? '';
    expect(b?.eventHash(last, previous)).toBe(a?.eventHash(last, previous));
  });

  it('copies from the UTF-8 input when it is ASCII, and encodes the text otherwise', () => {
    const spaced = JSON.stringify(record, null, 1);
    const ascii = scanCanonicalEvents(spaced, new TextEncoder().encode(spaced));
    const plain = scanCanonicalEvents(spaced);
    const previous = record.events[0]?._hash ?? '';
    expect(ascii?.eventHash(1, previous)).toBe(plain?.eventHash(1, previous));
    const accented = spaced.replace('"loan', '"lé😀an');
    expect(expectAgreement(accented)).toBe(record.events.length);
    // Bytes that are not the text's ASCII encoding are not used for copies.
    const other = scanCanonicalEvents(accented, new TextEncoder().encode(accented));
    expect(other?.eventText(0)).toBe(scanCanonicalEvents(accented)?.eventText(0));
  });
});

describe('the fast path canonicalizes every event the strict reader accepts', () => {
  it('accepts the canonical forms of every kind of value', () => {
    accepts(...CANONICAL_VALUES);
    accepts('{"_hash":"h","s":"\\u007f"}');
  });

  it('drops whitespace anywhere inside the event', () => {
    accepts(...SPACED_EVENTS);
  });

  it('reprints numbers not in Number::toString form', () => {
    accepts(...UNPRINTED_NUMBERS.map((n) => `{"_hash":"h","a":${n}}`));
    accepts('{"_hash":"h","a":[1E300,2,5e-324,2e-324]}', '{"_hash":"h","a":-0.0e-0}');
  });

  it('reprints strings with escapes that JSON.stringify does not write', () => {
    accepts(...UNWRITTEN_ESCAPES.map((e) => `{"_hash":"h","a":"x${e}y"}`));
    accepts('{"_hash":"h","a\\u0062":1}', '{"_hash":"h","a\\"b":1}', '{"b":1,"\\u0061":2}');
  });

  it('sorts members out of UTF-16 order at any depth', () => {
    accepts(...UNSORTED_EVENTS);
    // "😀" (U+D83D…) sorts before "\uffff" by code units, though not by code point.
    accepts('{"_hash":"h","😀":1,"\uffff":2}');
  });

  it('handles digit-leading names, __proto__ and a nested _hash as ordinary sorted data', () => {
    accepts(
      '{"_hash":"h","0":1,"10":2,"9":3,"__proto__":{"x":1},"a":{"_hash":"kept"}}',
      '{"_hash":"h","__proto__":1,"_a":2}',
    );
    accepts('{"_hash":"h","10":1,"9":2,"0":3}', '{"_hash":"h","_a":1,"__proto__":2}');
  });

  it('leaves _hash out wherever it stands, and whatever its value', () => {
    accepts(...HASH_NOT_FIRST);
    // An empty event is canonical as it stands; names that sort before _hash may follow it,
    // since _hash is not part of what is hashed.
    accepts('{}', '{"_hash":"h","$":1,"A":2,"Z":3,"a":4}');
  });

  it('declines events that repeat a name, overflow a number or nest too deep', () => {
    declines(
      '{"_hash":"h","_hash":"h","a":1}',
      '{"_hash":"h","a":1,"_hash":"h"}',
      '{"a":1,"_hash":"h","_hash":"h"}',
      '{"_hash":"h","\\u005fhash":"h"}',
      '{"_hash":"h","a":1,"a":2}',
      '{"_hash":"h","b":1,"a":2,"b":3}',
      '{"_hash":"h","a":{"x":1,"\\u0078":2}}',
      '{"_hash":"h","a":[{"y":1,"x":2,"y":3}]}',
      '{"_hash":"h","a":1e400}',
      '{"_hash":"h","a":[-1E309]}',
      `{"_hash":"h","a":${'['.repeat(520)}${']'.repeat(520)}}`,
    );
    // A duplicate among many members, sorted the other way.
    const many = Array.from({ length: 40 }, (_, i) => `"m${i}":${i}`);
    declines(`{${[...many, '"m7":0'].reverse().join(',')}}`);
    accepts(`{${many.reverse().join(',')}}`);
  });

  it('declines events that are not objects, and keeps positions aligned around them', () => {
    const text = recordText('1', '"s"', '[{"_hash":"h"}]', 'null', '{"_hash":"h","a":1}');
    expect(expectAgreement(text)).toBe(1);
    expect(scanCanonicalEvents(text)?.eventText(4)).toBe('{"a":1}');
  });

  it('reads strings whose escapes end next to quotes correctly', () => {
    expect(offered('{"_hash":"h","a":"\\\\","b":"\\"","c":"\\\\\\"","d":"x\\\\\\\\"}')).toBe(true);
    expect(offered('{"_hash":"\\\\","a":"\\"}\\"","b":"{\\"_hash\\":1}"}')).toBe(true);
  });

  it('declines all events of a text holding a lone surrogate, which stringify escapes', () => {
    const text = recordText('{"_hash":"h","a":"\ud800"}', '{"_hash":"h","b":1}');
    expect(scanCanonicalEvents(text)).toBeNull();
    expect(expectAgreement(recordText('{"_hash":"h","a":"\ud83d\ude00"}'))).toBe(1);
  });
});
