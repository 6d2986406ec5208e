import { describe, expect, it } from 'vitest';
import { SseParser, formatSseEvent, type SseEvent } from './sse.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** Parses `bytes` fed in the given pieces. */
function parse(bytes: Uint8Array, cuts: readonly number[] = []): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    events.push(...parser.push(bytes.subarray(start, cut)));
    start = cut;
  }
  return [...events, ...parser.end()];
}

describe('SseParser', () => {
  it('reads named and unnamed events, JSON data parsed and [DONE] kept as text', () => {
    const text =
      'event: message_start\ndata: {"type":"message_start","n":1}\n\ndata: {"a":[1,2]}\n\ndata: [DONE]\n\n';
    expect(parse(encode(text))).toEqual([
      { event: 'message_start', data: { type: 'message_start', n: 1 } },
      { data: { a: [1, 2] } },
      { data: '[DONE]' },
    ]);
  });

  it('gives the same events however the bytes are cut, inside UTF-8 sequences and CRLF pairs too', () => {
    const text = 'event: delta\r\ndata: {"text":"où 🌍 ü"}\r\n\r\ndata: {"b":"ß"}\r\n\r\n';
    const bytes = encode(text);
    const whole = parse(bytes);
    expect(whole).toEqual([{ event: 'delta', data: { text: 'où 🌍 ü' } }, { data: { b: 'ß' } }]);
    for (let cut = 1; cut < bytes.length; cut++) expect(parse(bytes, [cut])).toEqual(whole);
    expect(parse(bytes, [...bytes.keys()].slice(1))).toEqual(whole);
  });

  it('accepts CR line endings, no space after the colon, and joins data lines with LF', () => {
    expect(parse(encode('event:x\rdata:line one\rdata: line two\r\r'))).toEqual([
      { event: 'x', data: 'line one\nline two' },
    ]);
  });

  it('skips comments and id/retry fields, and dispatches an event that has a name but no data', () => {
    const text = ': keep-alive\n\nid: 7\nretry: 100\nevent: ping\n\n';
    expect(parse(encode(text))).toEqual([{ event: 'ping', data: '' }]);
  });

  it('drops an event the body ends in the middle of, as the clients do', () => {
    expect(parse(encode('data: {"a":1}\n\ndata: {"b":'))).toEqual([{ data: { a: 1 } }]);
    expect(parse(encode('data: {"a":1}\n\ndata: {"b":2}\n'))).toEqual([{ data: { a: 1 } }]);
  });

  it('keeps data that is not JSON as its text', () => {
    expect(parse(encode('data: not json {\n\n'))).toEqual([{ data: 'not json {' }]);
  });
});

describe('formatSseEvent', () => {
  it('frames every stored event so that the parser gives it back unchanged', () => {
    const events = [
      { event: 'x', data: 'line one\nline two' },
      { data: '"a JSON string"' },
      { data: '[DONE]' },
      { event: 'ping', data: '' },
      { data: { b: 1, a: ['ü', null] } },
    ];
    for (const event of events) {
      const text = formatSseEvent(event);
      expect(parse(encode(text))).toEqual([event]);
    }
    expect(parse(encode('data: "quoted"\n\n'))).toEqual([{ data: '"quoted"' }]);
  });
});
