import { canonical, canonicalOrder, canonicalWithout } from '@runback/canonical';
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
import { expectAgreement, expectSameReading } from '../../test/support/fast-path-agreement.js';
import { scanCanonicalEvents } from './canonical-events.js';
import { isWellFormedText, skipValue, stringEnd } from './lexer.js';

/** Whether the fast path offers the single event of `eventText` (and agrees if it does). */
function offered(eventText: string): boolean {
  return expectAgreement(recordText(eventText)) === 1;
}

/** Requires the fast path to offer each of these events. */
function accepts(...eventTexts: string[]): void {
  for (const text of eventTexts) expect(offered(text), text).toBe(true);
}

/** Requires the fast path to decline each of these events. */
function declines(...eventTexts: string[]): void {
  for (const text of eventTexts) expect(offered(text), text).toBe(false);
}

describe('scanCanonicalEvents on records written by runback', () => {
  // Stored in canonical member order (_hash first), the form this fast path proves.
  const record = canonicalOrder(sealedLoanRecord());
  const text = JSON.stringify(record);

  it('offers every event, each exactly the canonical text the chain hashes', () => {
    expect(expectAgreement(text)).toBe(record.events.length);
    const known = scanCanonicalEvents(text);
    expect(known?.count).toBe(record.events.length);
    const parsed = JSON.parse(text) as { events: Record<string, unknown>[] };
    parsed.events.forEach((event, i) => {
      expect(known?.eventText(i)).toBe(canonicalWithout(event, '_hash'));
      for (const [name, value] of Object.entries(event))
        expect(known?.memberText(i, name)).toBe(canonical(value));
    });
  });

  it('returns null when there are no events', () => {
    expect(scanCanonicalEvents(recordText())).toBeNull();
    expect(scanCanonicalEvents('{"events":[ ]}')).toBeNull();
  });

  it('offers each canonical event as a stretch the strict reader steps over', () => {
    const spans = scanCanonicalEvents(text)?.provenSpans();
    expect(spans?.count).toBe(record.events.length);
    expect(Array.from(spans?.proven ?? []).slice(0, record.events.length)).toEqual(
      record.events.map(() => 1),
    );
    const first = JSON.stringify(record.events[0]);
    expect(spans?.starts[0]).toBe(text.indexOf(first));
    expect(spans?.ends[0]).toBe(text.indexOf(first) + first.length);
    expect(spans?.names[0]).toBe((first.match(/":/g) ?? []).length);
    expect(spans?.depths[0]).toBe(2); // the event and its input object
  });

  it('finds the events array among other members, whitespace and nested "events" members', () => {
    const event = JSON.stringify(record.events[0]);
    const decoy = '"eventz":[{"_hash":"h","a":1},{"_hash":"h","b":2}]';
    const spaced = `\n { "manifest" : {"events":[1,2]} ,\t"x":[{"events":"no"}, "]", 1e5, true],${decoy},\r\n "events" : [ ${event} , ${event} ] , "z": null }\n`;
    expect(expectAgreement(spaced)).toBe(2);
  });

  it('declines an events member whose name is escaped, and an events member that is no array', () => {
    const event = JSON.stringify(record.events[0]);
    expect(scanCanonicalEvents(`{"\\u0065vents":[${event}]}`)).toBeNull();
    expect(scanCanonicalEvents(`{"events":{"0":${event}}}`)).toBeNull();
    expect(scanCanonicalEvents(`[${event}]`)).toBeNull();
  });

  it('grows its tables for records denser in events and members than it guessed', () => {
    const names = 'abcdefghijklmnopqrstuvwxyz'.split('');
    const events = Array.from(
      { length: 400 },
      (_, i) => `{"_hash":"${i}",` + names.map((n) => `"${n}":${i}`).join(',') + '}',
    );
    expect(expectAgreement(recordText(...events))).toBe(400);
    expect(scanCanonicalEvents(recordText(...events))?.memberText(399, 'z')).toBe('399');
  });

  it('gives up early on a long record none of whose first events is canonical', () => {
    const spaced = JSON.stringify(record.events[0], null, 1);
    const events = Array.from({ length: 70 }, () => spaced);
    expect(scanCanonicalEvents(recordText(...events))).toBeNull();
    expect(expectAgreement(recordText(...events, JSON.stringify(record.events[0])))).toBe(0);
    // Not when one of them is canonical.
    expect(expectAgreement(recordText(JSON.stringify(record.events[0]), ...events))).toBe(1);
  });
});

describe('the fast path declines every event that is not provably canonical', () => {
  it('accepts the canonical forms of every kind of value', () => {
    accepts(...CANONICAL_VALUES);
    declines('{"_hash":"h","s":"\\u007f"}');
  });

  it('declines whitespace anywhere inside the event', () => {
    declines(...SPACED_EVENTS);
  });

  it('declines numbers not in Number::toString form', () => {
    declines(...UNPRINTED_NUMBERS.map((n) => `{"_hash":"h","a":${n}}`));
  });

  it('declines escapes that JSON.stringify does not write', () => {
    declines(...UNWRITTEN_ESCAPES.map((e) => `{"_hash":"h","a":"x${e}y"}`));
    declines('{"_hash":"h","a\\u0062":1}', '{"_hash":"h","a\\"b":1}');
  });

  it('declines members out of UTF-16 order at any depth', () => {
    declines(...UNSORTED_EVENTS);
    // "😀" (U+D83D…) sorts before "\uffff" by code units, though not by code point.
    accepts('{"_hash":"h","😀":1,"\uffff":2}');
  });

  it('handles digit-leading names, __proto__ and a nested _hash as ordinary sorted data', () => {
    accepts(
      '{"_hash":"h","0":1,"10":2,"9":3,"__proto__":{"x":1},"a":{"_hash":"kept"}}',
      '{"_hash":"h","__proto__":1,"_a":2}',
    );
    declines('{"_hash":"h","10":1,"9":2,"0":3}', '{"_hash":"h","_a":1,"__proto__":2}');
  });

  it('requires _hash first with a string value', () => {
    declines(...HASH_NOT_FIRST);
    // An empty event is canonical as it stands; names that sort before _hash may follow it,
    // since _hash is not part of what is hashed.
    accepts('{}', '{"_hash":"h","$":1,"A":2,"Z":3,"a":4}');
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

describe('the strict reader stepping over canonical events', () => {
  const code = (text: string): string | undefined => {
    const read = expectSameReading(text);
    return read.ok ? undefined : read.error.code;
  };

  it('still rejects what is wrong inside or around them, with the same error', () => {
    expect(code(recordText('{"_hash":"h","a":1,"a":2}'))).toBe('JSON_DUPLICATE_MEMBER');
    expect(code(recordText('{"_hash":"h","a":1}', '{"_hash":"h","b":1e400}'))).toBe(
      'JSON_NUMBER_OUT_OF_RANGE',
    );
    expect(code(recordText('{"_hash":"h","a":tru}'))).toBe('JSON_SYNTAX');
    expect(code(recordText('{"_hash":"h","a":"x\\u00zz"}'))).toBe('JSON_SYNTAX');
    expect(code(recordText('{"_hash":"h","a":1}') + ',"events":[]}')).toBe('JSON_SYNTAX');
    expect(code('{"events":[{"_hash":"h","a":1}],"events":[]}')).toBe('JSON_DUPLICATE_MEMBER');
    const deep = '['.repeat(600) + ']'.repeat(600);
    expect(code(recordText(`{"_hash":"h","a":${deep}}`))).toBe('JSON_TOO_DEEP');
    expect(code(recordText(`{"_hash":"h","a":${'['.repeat(510)}${']'.repeat(510)}}`))).toBe(
      'JSON_TOO_DEEP',
    );
    expect(code(recordText(`{"_hash":"h","a":${'['.repeat(509)}${']'.repeat(509)}}`))).toBe(
      undefined,
    );
  });

  it('counts their members when the rest of the text needs a walk of the parsed value', () => {
    // A name with an escape leaves duplicates unproven by the pre-scan, so it compares counts.
    const text = '{"m\\\\u0061nifest":{},"events":[{"_hash":"h","a":{"b":1,"c":[{"d":2}]}}]}';
    expect(code(text)).toBe(undefined);
    expect(code(text.replace('{}', '{"x":1,"x":2}'))).toBe('JSON_DUPLICATE_MEMBER');
  });
});

describe('lexer', () => {
  it('finds string ends past escaped quotes', () => {
    expect(stringEnd('"a\\"b"', 1)).toBe(5);
    expect(stringEnd('"a\\\\"b', 1)).toBe(4);
    expect(stringEnd('"abc', 1)).toBe(-1);
  });

  it('skips values of every kind, and fails on truncated ones', () => {
    const text = '{"a":[1,{"b":"]}"}],"c":-1.5e3,"d":true}';
    expect(skipValue(text, 0)).toBe(text.length);
    expect(skipValue(text, 5)).toBe(text.indexOf(',"c"'));
    expect(skipValue(text, text.indexOf('-1.5'))).toBe(text.indexOf(',"d"'));
    expect(skipValue(text, text.indexOf('true'))).toBe(text.length - 1);
    expect(skipValue('[1,[2]', 0)).toBe(-1);
    expect(skipValue('"ab', 0)).toBe(-1);
    expect(skipValue('', 0)).toBe(-1);
  });

  it('tells lone surrogates from pairs', () => {
    expect(isWellFormedText('a😀b')).toBe(true);
    expect(isWellFormedText('a\ud800b')).toBe(false);
    expect(isWellFormedText('\udc00')).toBe(false);
    expect(isWellFormedText('\ude00\ud83d')).toBe(false);
  });
});
