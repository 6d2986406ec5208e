import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberText, recordSpans } from './record-spans.js';
import { StoredEvents } from './stored-events.js';

/** JSON text of `value` with whitespace (of every kind JSON allows) around every token. */
function spaced(value: unknown, space: string): string {
  if (Array.isArray(value)) {
    return `[${space}${value.map((v) => spaced(v, space)).join(`${space},${space}`)}${space}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(
      ([k, v]) => `${JSON.stringify(k)}${space}:${space}${spaced(v, space)}`,
    );
    return `{${space}${members.join(`${space},${space}`)}${space}}`;
  }
  return JSON.stringify(value);
}

const awkwardString = fc
  .array(
    fc.constantFrom('a', '"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'é', '\u2028', '😀', '\\"'),
    { maxLength: 12 },
  )
  .map((units) => units.join(''));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    awkwardString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(awkwardString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('recordSpans', () => {
  it('finds every top-level member and every event as JSON.parse reads them, whatever the spacing', () => {
    fc.assert(
      fc.property(
        fc.dictionary(awkwardString, json, { maxKeys: 4 }),
        fc.array(json, { maxLength: 6 }),
        fc.constantFrom('', ' ', '\n', '\t\r\n '),
        (head, events, space) => {
          const record = { ...head, events };
          const text = spaced(record, space);
          const spans = recordSpans(text);
          const parsed = JSON.parse(text) as Record<string, unknown>;
          expect([...spans.members.keys()].sort()).toEqual(Object.keys(parsed).sort());
          for (const [name, [start, end]] of spans.members) {
            expect(JSON.parse(text.slice(start, end))).toEqual(parsed[name]);
          }
          const stored = new StoredEvents(text, spans.events);
          expect(stored.length).toBe(events.length);
          // Against the parsed text, not the generated values: the text of -0 is "0".
          const parsedEvents = parsed['events'] as unknown[];
          for (let i = 0; i < events.length; i++) expect(stored.event(i)).toEqual(parsedEvents[i]);
        },
      ),
    );
  });

  it('skips a leading byte order mark, as verifyJson does', () => {
    const spans = recordSpans('\ufeff{"events":[{"a":1}]}');
    expect(spans.events).toEqual([12, 19]);
  });

  it('refuses what is not one JSON object, and a member named twice', () => {
    for (const text of ['[1]', '{"a":1', '{"a":1} x', '{"a" 1}', '{"a":"unterminated}', '']) {
      expect(() => recordSpans(text), text).toThrow(/REPLAY_RECORD_INVALID|expected/);
    }
    expect(() => recordSpans('{"events":[],"events":[]}')).toThrow(
      'expected a member named "events" once, got it twice',
    );
  });
});

describe('memberText', () => {
  it('gives a top-level member value as written, never a nested member of the same name', () => {
    const text =
      '{"input":{"type":"tool"},"note":"\\"type\\":\\"tool\\"","type" : "llm","x":[{"type":1}]}';
    expect(memberText(text, 'type')).toBe('"llm"');
    expect(memberText(text, 'input')).toBe('{"type":"tool"}');
    expect(memberText(text, 'missing')).toBeUndefined();
    expect(memberText('{}', 'type')).toBeUndefined();
  });
});
