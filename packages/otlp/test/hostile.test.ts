// Hostile and broken OTLP input: every refusal is an OtlpError with a stable code and a
// message that says what was expected and what came, never a crash or a partial record.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportOtlp, importOtlp, OtlpError, type OtlpErrorCode } from '../src/index.js';
import { at, listAt, spanAt } from './support/otlp-json.js';
import { readRecord, resealed, EXAMPLE_PATH, verified } from './support/records.js';

const FOREIGN = readFileSync(new URL('./fixtures/foreign-genai.json', import.meta.url), 'utf8');

function refusal(input: string | Uint8Array, options = {}): OtlpError {
  try {
    importOtlp(input, options);
  } catch (err) {
    if (err instanceof OtlpError) return err;
    throw err;
  }
  throw new Error('expected importOtlp to refuse the input');
}

/** The foreign fixture with one span (scopeSpans[1].spans[1], the chat span) edited. */
function withChatSpan(edit: (span: Record<string, unknown>) => void): string {
  const request: unknown = JSON.parse(FOREIGN);
  edit(spanAt(request, 0, 1, 1));
  return JSON.stringify(request);
}

const CHAT = 'resourceSpans[0].scopeSpans[1].spans[1]';

describe('importOtlp refuses', () => {
  it.each<[string, string | Uint8Array, OtlpErrorCode, RegExp]>([
    ['empty input', '', 'OTLP_NOT_JSON', /JSON_EMPTY/],
    ['broken JSON', '{"resourceSpans": [', 'OTLP_NOT_JSON', /JSON_SYNTAX/],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'OTLP_NOT_JSON', /JSON_INVALID_UTF8/],
    [
      'duplicate members',
      '{"resourceSpans":[],"resourceSpans":[]}',
      'OTLP_NOT_JSON',
      /JSON_DUPLICATE_MEMBER/,
    ],
    ['deep nesting', '['.repeat(100_000) + ']'.repeat(100_000), 'OTLP_NOT_JSON', /JSON_TOO_DEEP/],
    [
      'a bad line of JSON Lines',
      '{"resourceSpans":[]}\n{"resourceSpans":',
      'OTLP_NOT_JSON',
      /line 2/,
    ],
    [
      'an array',
      '[]',
      'OTLP_BAD_FIELD',
      /expected the document to be an ExportTraceServiceRequest object, got an array/,
    ],
    [
      'a record, not traces',
      readFileSync(EXAMPLE_PATH, 'utf8'),
      'OTLP_BAD_FIELD',
      /resourceSpans.*got members \$schema/,
    ],
    [
      'resourceSpans of the wrong type',
      '{"resourceSpans":{}}',
      'OTLP_BAD_FIELD',
      /expected resourceSpans to be an array, got object/,
    ],
    ['no spans at all', '{"resourceSpans":[]}', 'OTLP_NO_GENAI_SPANS', /got 0 spans/],
  ])('%s', (_, input, code, message) => {
    const err = refusal(input);
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/^(line \d+: )?expected /);
  });

  it.each<[string, (s: Record<string, unknown>) => void, RegExp]>([
    [
      'a numeric trace id',
      (s) => (s['traceId'] = 42),
      /traceId to be 32 hex digits \(not all zero\), got number 42/,
    ],
    [
      'an all-zero span id',
      (s) => (s['spanId'] = '0000000000000000'),
      /spanId to be 16 hex digits/,
    ],
    [
      'a short parent id',
      (s) => (s['parentSpanId'] = 'abc'),
      /parentSpanId to be 16 hex digits or ""/,
    ],
    [
      'a negative time',
      (s) => (s['startTimeUnixNano'] = '-5'),
      /startTimeUnixNano to be unsigned nanoseconds/,
    ],
    ['a fractional time', (s) => (s['startTimeUnixNano'] = 1.5), /startTimeUnixNano/],
    [
      'an end before the start',
      (s) => (s['endTimeUnixNano'] = '1'),
      /endTimeUnixNano to be no earlier than startTimeUnixNano/,
    ],
    [
      'a time past 2^64 - 1',
      (s) => (s['endTimeUnixNano'] = '99999999999999999999'),
      /endTimeUnixNano to be a fixed64/,
    ],
    [
      'a huge number as a time',
      (s) => (s['endTimeUnixNano'] = 1e30),
      /endTimeUnixNano to be a fixed64/,
    ],
    ['an unknown span kind', (s) => (s['kind'] = 9), /kind to be one of 0\.\.5/],
    [
      'attributes as an object',
      (s) => (s['attributes'] = { a: 1 }),
      /attributes to be an array, got object/,
    ],
    [
      'a key that is not a string',
      (s) => (s['attributes'] = [{ key: 7, value: {} }]),
      /attributes\[0\]\.key to be a string, got number 7/,
    ],
    [
      'an int that is not a number',
      (s) =>
        (s['attributes'] = [{ key: 'gen_ai.usage.input_tokens', value: { intValue: 'many' } }]),
      /intValue to be an integer within ±2\^53/,
    ],
    [
      'an int beyond 2^53',
      (s) => (s['attributes'] = [{ key: 'x', value: { intValue: '90071992547409930' } }]),
      /within ±2\^53/,
    ],
    [
      'two members in an AnyValue',
      (s) => (s['attributes'] = [{ key: 'x', value: { stringValue: 'a', intValue: 1 } }]),
      /an AnyValue with one member, got members stringValue, intValue/,
    ],
    [
      'an unknown AnyValue member',
      (s) => (s['attributes'] = [{ key: 'x', value: { textValue: 'a' } }]),
      /got member "textValue"/,
    ],
    [
      'a string that is a number',
      (s) => (s['attributes'] = [{ key: 'x', value: { stringValue: 5 } }]),
      /stringValue to be a string, got number 5/,
    ],
    [
      'a status code out of range',
      (s) => (s['status'] = { code: 7 }),
      /status\.code to be one of 0\.\.2/,
    ],
    ['events that are not objects', (s) => (s['events'] = ['boom']), /events\[0\] to be an object/],
  ])('a span with %s', (_, edit, message) => {
    const err = refusal(withChatSpan(edit));
    expect(err.code).toBe('OTLP_BAD_FIELD');
    expect(err.message).toContain(CHAT);
    expect(err.message).toMatch(message);
  });

  it('values nested deeper than 64 levels', () => {
    let value: unknown = { stringValue: 'deep' };
    for (let i = 0; i < 80; i++) value = { arrayValue: { values: [value] } };
    const err = refusal(withChatSpan((s) => (s['attributes'] = [{ key: 'x', value }])));
    expect(err.code).toBe('OTLP_BAD_FIELD');
    expect(err.message).toMatch(/nested at most 64 deep/);
  });

  it('input over the byte limit, before reading it', () => {
    const huge = ' '.repeat(64 * 1024 * 1024 + 1);
    const err = refusal(huge);
    expect(err.code).toBe('OTLP_TOO_LARGE');
    expect(err.message).toBe(
      `expected at most ${64 * 1024 * 1024} bytes of OTLP/JSON, got ${huge.length}`,
    );
    expect(refusal(FOREIGN, { maxBytes: 1000 }).code).toBe('OTLP_TOO_LARGE');
  });

  it('more spans than the limit', () => {
    const err = refusal(FOREIGN, { maxSpans: 3 });
    expect(err.code).toBe('OTLP_TOO_LARGE');
    expect(err.message).toMatch(/expected at most 3 spans/);
  });

  it('GenAI spans of two traces unless one is chosen, and a chosen trace that is not there', () => {
    const request = JSON.parse(FOREIGN) as { resourceSpans: unknown[] };
    const copy: unknown = JSON.parse(JSON.stringify(request.resourceSpans[0]));
    for (const ss of listAt(copy, 'scopeSpans'))
      for (const s of listAt(ss, 'spans'))
        (s as Record<string, unknown>)['traceId'] = '11112222333344445555666677778888';
    request.resourceSpans.push(copy);
    const two = JSON.stringify(request);
    const err = refusal(two);
    expect(err.code).toBe('OTLP_MULTIPLE_TRACES');
    expect(err.message).toMatch(
      /got 2: 4bf92f3577b34da6a3ce929d0e0e4736, 11112222333344445555666677778888/,
    );
    expect(importOtlp(two, { traceId: '11112222333344445555666677778888' }).genaiSpanCount).toBe(3);
    expect(refusal(two, { traceId: 'ffffffffffffffffffffffffffffffff' }).code).toBe(
      'OTLP_TRACE_NOT_FOUND',
    );
  });

  it('two spans with one id in a trace', () => {
    const err = refusal(withChatSpan((s) => (s['spanId'] = 'c3d4e5f60718293a')));
    expect(err.code).toBe('OTLP_DUPLICATE_SPAN');
    expect(err.message).toMatch(/got c3d4e5f60718293a twice/);
  });

  it('a parent cycle does not hang: the spans still import', () => {
    const text = withChatSpan((s) => {
      s['parentSpanId'] = 'c3d4e5f60718293a';
    });
    const request: unknown = JSON.parse(text);
    spanAt(request, 0, 1, 2)['parentSpanId'] = 'b2c3d4e5f6071829';
    const r = importOtlp(JSON.stringify(request));
    expect(r.events.length).toBeGreaterThan(2);
  });

  it('a runback export whose events were replaced by something else', () => {
    const json = exportOtlp(resealed(readRecord(EXAMPLE_PATH)), {
      verification: verified(readRecord(EXAMPLE_PATH)),
    }).json;
    const request: unknown = JSON.parse(json);
    const span = spanAt(request, 0, 0, 1);
    const attr = listAt(span, 'attributes').find((a) => at(a, 'key') === 'runback.event') as {
      value: unknown;
    };
    for (const [bad, message] of [
      ['not json', /runback\.event to be JSON, got JSON_SYNTAX/],
      ['[1,2]', /to be a JSON object, got an array of 2/],
      ['{"type":1}', /to have a string type, got number 1/],
      ['{"type":"llm","a":1,"a":2}', /JSON_DUPLICATE_MEMBER/],
    ] as const) {
      attr.value = { stringValue: bad };
      const err = refusal(JSON.stringify(request));
      expect(err.code).toBe('OTLP_BAD_RUNBACK_EVENT');
      expect(err.message).toMatch(message);
    }
  });
});
