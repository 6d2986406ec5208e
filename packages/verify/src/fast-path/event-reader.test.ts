// The event reader proves every token of an event it offers well formed (RFC 8259 §3, §6,
// §7), so that verifyJson may give the steps a view of the event without JSON.parse reading
// it. An event with a token JSON.parse refuses must be declined, compact or pretty-printed,
// and verifyJson must then report exactly what the plain reading reports.
import { describe, expect, it } from 'vitest';
import { PEM, sealedLoanRecord, viaJson } from '../../test/support/fixtures.js';
import { recordText } from '../../test/support/event-forms.js';
import { verifyJson, verifyJsonWith } from '../verify.js';
import { canonicalizeEvents } from './canonicalized-events.js';

const TRUST = { pinned: [PEM.current] };

/** Tokens JSON.parse refuses where a value is expected, each as it stands in the text. */
const BAD_VALUES: readonly string[] = [
  ...['01', '-01', '00', '-', '--1', '1.', '-.5', '.5', '1.e5', '1e', '1e+', '1E-', '+1'],
  ...['1.5.5', '1e5e5', '1-2', '0x1', '1ee5', '1.5e', '2e1.5', '-e5', 'Infinity', 'NaN'],
  ...['tru', 'nul', 'fals', 'True', 'nULL', 'fAlse', 'truex', 'nullx', 'falsex', 'tr', 't'],
  ...['"\\x"', '"\\u12"', '"\\u12g4"', '"\\uGGGG"', '"\\u"', '"\\U0041"', '"\\a"', '"\\0"'],
  ...['"\\\'"', '"a\\ b"', '"\\u00e"', "'a'", '"open', '1 x', '"a" "b"', '1 2'],
];

/** Every raw control character, each in a string (where RFC 8259 §7 forbids it). */
const CONTROLS: readonly string[] = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c));

/** Valid tokens of every form, in a compact and in a spaced event. */
const GOOD_EVENTS: readonly string[] = [
  '{"_hash":"h","a":[0,-0,1,-1,10,1.5,-2e-3,3E+20,1e5,0.0,0e0,-0E-0,12.50e+007]}',
  '{"_hash":"h","b":[true,false,null,[true],{"t":false}],"c":null}',
  '{"_hash":"h","s":"x\\n\\"\\\\\\/\\b\\f\\r\\t\\u00E9\\uABCD\\uabcd\\u0000\\ud83d\\ude00"}',
  '{"_hash":"h","\\u0061\\n":1,"\\t\\\\":"\\/"}',
  ' {\t"_hash" :\r\n"h" ,\n"a"\t:\t[ 1 ,\r2 , true\n] , "b" : { } }',
];

/**
 * Whether the reader offered the record's event k, read from the text, and from its bytes
 * (word by word) when it is ASCII, which must agree.
 */
function proven(text: string, k: number): boolean {
  const offered = canonicalizeEvents(text)?.scan.proven[k] === 1;
  const bytes = Buffer.from(text);
  if (bytes.length === text.length)
    expect(canonicalizeEvents(text, bytes)?.scan.proven[k] === 1, 'from the bytes').toBe(offered);
  return offered;
}

/** verifyJson's result is the plain reading's, a JSON syntax error. */
function expectPlainSyntaxError(text: string, label: string): void {
  expect(() => JSON.parse(text), label).toThrow();
  const ours = verifyJson(text, TRUST);
  expect(ours, label).toEqual(verifyJsonWith(text, TRUST, 'plain'));
  expect(ours.errors[0]?.code, label).toBe('JSON_SYNTAX');
}

/** A signed record's text, compact or pretty-printed, with its first tool event's output set. */
function signedWith(token: string, pretty: boolean): { text: string; k: number } {
  const record = viaJson(sealedLoanRecord()) as unknown as { events: Record<string, unknown>[] };
  const k = record.events.findIndex((e) => e['type'] === 'tool');
  const marker = 'MARKER-7f3a';
  (record.events[k] as Record<string, unknown>)['output'] = { v: [1, marker] };
  const written = pretty ? JSON.stringify(record, null, 2) : JSON.stringify(record);
  return { text: written.replace(`"${marker}"`, token), k };
}

describe('the event reader on tokens', () => {
  it('offers events with every well-formed token form, compact or spaced', () => {
    for (const event of GOOD_EVENTS) {
      const text = recordText(event);
      expect(() => JSON.parse(text), event).not.toThrow();
      expect(proven(text, 0), event).toBe(true);
    }
  });

  it('declines a value JSON.parse refuses, and verifyJson reports it as the plain reading', () => {
    for (const bad of BAD_VALUES) {
      for (const event of [`{"_hash":"h","a":${bad}}`, `{"_hash":"h","a":[1,${bad},2]}`]) {
        const text = recordText(event);
        expect(proven(text, 0), event).toBe(false);
        expect(() => JSON.parse(text), event).toThrow();
      }
      for (const pretty of [false, true]) {
        const { text, k } = signedWith(bad, pretty);
        expect(proven(text, k), `${bad} (pretty: ${pretty})`).toBe(false);
        expectPlainSyntaxError(text, `${bad} (pretty: ${pretty})`);
      }
    }
  });

  it('declines a member name with an escape JSON.parse refuses', () => {
    for (const bad of ['\\x', '\\u12', '\\u12"', '\\z']) {
      const text = recordText(`{"_hash":"h","a${bad}":1}`);
      expect(proven(text, 0), bad).toBe(false);
      expectPlainSyntaxError(text, bad);
    }
  });

  it('declines a raw control character in a string of a compact or pretty event', () => {
    for (const c of CONTROLS) {
      const label = `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      for (const pretty of [false, true]) {
        // In a string value, at its start, inside and at its end.
        for (const token of [`"${c}x"`, `"x${c}y"`, `"x${c}"`, `"${c}"`]) {
          const { text, k } = signedWith(token, pretty);
          expect(proven(text, k), `${label} ${token.length} (pretty: ${pretty})`).toBe(false);
          expectPlainSyntaxError(text, `${label} (pretty: ${pretty})`);
        }
        // In a member name.
        const { text, k } = signedWith(`{"a${c}":1}`, pretty);
        expect(proven(text, k), `${label} in a name (pretty: ${pretty})`).toBe(false);
        expectPlainSyntaxError(text, `${label} in a name (pretty: ${pretty})`);
      }
      // In the event's own member name, and in _hash's value.
      for (const event of [`{"_hash":"h","${c}":1}`, `{"_hash":"h${c}"}`]) {
        expect(proven(recordText(event), 0), label).toBe(false);
        expectPlainSyntaxError(recordText(event), label);
      }
    }
  });

  it('finds a control character in a later event after spaced and compact events', () => {
    // The next control character found for one event is reused for the next ones: a compact
    // event after one holding line feeds, after whitespace between events, or after a
    // compact one, is still looked into.
    const bad = '{"_hash":"h","a":"x\u0001"}';
    for (const before of [
      ['{"_hash":"h",\n"a":1}'],
      ['{"_hash":"h","a":1}'],
      ['{"_hash":"h","a":1}', '\n{"_hash":"h","a":2}'],
      ['{"_hash":"h",\t"a":"\\t"}', '{"_hash":"h","a":2}'],
    ]) {
      for (const gap of ['', '\n', ' ']) {
        const text = recordText(...before, gap + bad);
        const k = before.length;
        for (let j = 0; j < k; j++) expect(proven(text, j), text).toBe(true);
        expect(proven(text, k), text).toBe(false);
        expect(proven(recordText(...before, gap + bad.replace('\u0001', '1')), k)).toBe(true);
        expectPlainSyntaxError(text, text);
      }
    }
  });

  it('offers a pretty-printed signed record whole, and verifies it as the plain reading', () => {
    const record = viaJson(sealedLoanRecord());
    for (const text of [JSON.stringify(record, null, 2), JSON.stringify(record, null, '\t')]) {
      const known = canonicalizeEvents(text);
      expect(Array.from(known?.scan.proven.subarray(0, record.events.length) ?? [])).toEqual(
        record.events.map(() => 1),
      );
      const ours = verifyJson(text, TRUST);
      expect(ours.verdict).toBe('valid');
      expect(ours).toEqual(verifyJsonWith(text, TRUST, 'plain'));
    }
  });
});
