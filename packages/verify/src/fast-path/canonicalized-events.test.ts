import { canonical, canonicalWithout } from '@runback/canonical';
import { eventHash } from '@runback/chain';
import { describe, expect, it } from 'vitest';
import { sealedLoanRecord } from '../../test/support/fixtures.js';
import {
  expectCanonicalizedAgreement as expectAgreement,
  expectSameCanonicalizedReading as expectSameReading,
} from '../../test/support/canonicalized-agreement.js';
import { canonicalizeEvents as scanCanonicalEvents } from './canonicalized-events.js';

/** A record text whose events array holds the given event texts. */
const recordText = (...events: string[]): string =>
  '{"$schema":"runback.audit/v2","events":[' + events.join(',') + ']}';

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
    accepts(
      '{"_hash":"h"}',
      '{"_hash":"","a":{},"b":[],"c":[[]],"d":[{}],"e":{"f":{"g":null}}}',
      '{"_hash":"h","a":true,"b":false,"c":null,"d":-1.5,"e":1e+21,"f":1e-7}',
      '{"_hash":"h","n":[0,-5,123456789012345,1234567890123456,0.1,5e-324]}',
      '{"_hash":"h","s":"\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f"}',
      '{"_hash":"h","s":"é😀\u2028/\u007f"}',
    );
    accepts('{"_hash":"h","s":"\\u007f"}');
  });

  it('drops whitespace anywhere inside the event', () => {
    accepts(
      '{ "_hash":"h","a":1}',
      '{"_hash":"h", "a":1}',
      '{"_hash":"h","a" :1}',
      '{"_hash":"h","a":[1 ,2]}',
      '{"_hash":"h","a":{}\n}',
    );
  });

  it('reprints numbers not in Number::toString form', () => {
    const forms = ['1.0', '1e2', '1E2', '1e0', '-0', '0.0', '1.50', '10e-1', '1e+2', '100e19'];
    // The last two print as 12345678901234567000 and 9007199254740992.
    forms.push('12345678901234567890', '9007199254740993');
    accepts(...forms.map((n) => `{"_hash":"h","a":${n}}`));
    accepts('{"_hash":"h","a":[1E300,2,5e-324,2e-324]}', '{"_hash":"h","a":-0.0e-0}');
  });

  it('reprints strings with escapes that JSON.stringify does not write', () => {
    const escapes = ['\\/', '\\u0061', '\\u001F', '\\u00e9', '\\u00F1', '\\u0020', '\\u0100'];
    escapes.push('\\u1000', '\\ud800', '\\udc00', '\\ud83d\\ude00', '\\u2028');
    // Characters with a short escape are never written as \u00xx.
    escapes.push('\\u0008', '\\u0009', '\\u000a', '\\u000c', '\\u000d', '\\u0022', '\\u005c');
    accepts(...escapes.map((e) => `{"_hash":"h","a":"x${e}y"}`));
    accepts('{"_hash":"h","a\\u0062":1}', '{"_hash":"h","a\\"b":1}', '{"b":1,"\\u0061":2}');
  });

  it('sorts members out of UTF-16 order at any depth', () => {
    accepts(
      '{"_hash":"h","b":1,"a":2}',
      '{"_hash":"h","a":{"y":1,"x":2}}',
      '{"_hash":"h","a":[{"x":1,"y":2},{"y":1,"x":2}]}',
      '{"_hash":"h","aa":1,"a":2}',
      '{"_hash":"h","\uffff":1,"😀":2}',
    );
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
    accepts(
      '{"a":1,"_hash":"h"}',
      '{"_hasx":"h","a":1}',
      '{"hash_":"h"}',
      '{"_has":"h","a":1}',
      '{"A":1,"_hash":"h"}',
      '{"a":1}',
      '{"_hash":1,"a":1}',
      '{"_hash":null,"a":1}',
      '{"_hash":{"a":1},"a":1}',
    );
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
