import { describe, expect, it } from 'vitest';
import { eventHash } from '@runback/chain';
import { BatchReader } from './batch-reader.js';
import { EventBatch } from './event-batch.js';

// Four events as another producer writes them: members in no particular order, and strings
// with escapes (backslashes the reader must find before each string it reads).
const EVENTS = [
  '{"type":"tool","seq":0,"text":"say \\"hi\\"","input":{"b":1,"a":"x\\\\y"}}',
  '{"type":"reasoning","seq":1,"text":"caf\\u00e9 \\n ok"}',
  '{"type":"tool","seq":2,"output":{"z":[1,2,{"y":"q\\""}],"a":null}}',
  '{"type":"reasoning","seq":3,"text":"plain"}',
];

/** The events' JSON text, whitespace between them, and where each lies. */
function eventsText(): { text: string; starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let text = '';
  for (const json of EVENTS) {
    if (text !== '') text += ' , ';
    starts.push(text.length);
    text += json;
    ends.push(text.length);
  }
  return { text, starts, ends };
}

/** The chain hashes of the events, from h_0 = "" (docs/spec.md §3). */
function expectedHashes(text: string, starts: number[], ends: number[]): string[] {
  let head = '';
  return starts.map((s, k) => {
    head = eventHash(head, JSON.parse(text.slice(s, ends[k])) as Record<string, unknown>);
    return head;
  });
}

function batchOf(text: string, starts: number[], ends: number[]): EventBatch {
  const batch = new EventBatch();
  batch.reset('', text, 0);
  for (let k = 0; k < starts.length; k++) batch.add(starts[k] as number, ends[k] as number);
  return batch;
}

const hashesOf = (reader: BatchReader, count: number) =>
  Array.from({ length: count }, (_, k) => reader.hash(k));

describe('BatchReader', () => {
  const { text, starts, ends } = eventsText();
  const expected = expectedHashes(text, starts, ends);

  it('chains a batch it reads whole', () => {
    const reader = new BatchReader();
    reader.read(batchOf(text, starts, ends), '');
    expect(hashesOf(reader, 4)).toEqual(expected);
  });

  it('keeps what it read of each event as the splitter reached it', () => {
    const reader = new BatchReader();
    const batch = new EventBatch();
    batch.reset('', text, 0);
    for (let k = 0; k < 4; k++) {
      expect(reader.eventEnd(batch, starts[k] as number, () => '')).toBe(ends[k]);
      batch.add(starts[k] as number, ends[k] as number);
    }
    reader.read(batch, '');
    expect(hashesOf(reader, 4)).toEqual(expected);
  });

  it('reads a batch again whole when the splitter did not hand it every event, back from where it read last', () => {
    // The reader read events 0-2 as the splitter reached them, so it has looked for
    // backslashes up to event 3; the batch holds all four, so it reads them again from event
    // 0, whose escapes it must find again.
    const reader = new BatchReader();
    const batch = new EventBatch();
    batch.reset('', text, 0);
    for (let k = 0; k < 3; k++) reader.eventEnd(batch, starts[k] as number, () => '');
    for (let k = 0; k < 4; k++) batch.add(starts[k] as number, ends[k] as number);
    reader.read(batch, '');
    expect(hashesOf(reader, 4)).toEqual(expected);
  });

  it('chains from the head the stream has reached', () => {
    const head = 'ab'.repeat(32);
    let h = head;
    const onHead = starts.map((s, k) => {
      h = eventHash(h, JSON.parse(text.slice(s, ends[k])) as Record<string, unknown>);
      return h;
    });
    const reader = new BatchReader();
    const batch = new EventBatch();
    batch.reset('', text, 0);
    for (let k = 0; k < 4; k++) {
      reader.eventEnd(batch, starts[k] as number, () => head);
      batch.add(starts[k] as number, ends[k] as number);
    }
    reader.read(batch, head);
    expect(hashesOf(reader, 4)).toEqual(onHead);
  });

  it('declines an element that is not an event object, and chains none after it', () => {
    const spoiled =
      text.slice(0, starts[1]) +
      '7' +
      ' '.repeat((ends[1] as number) - (starts[1] as number) - 1) +
      text.slice(ends[1]);
    const reader = new BatchReader();
    const batch = new EventBatch();
    batch.reset('', spoiled, 0);
    for (let k = 0; k < 4; k++) {
      const end = reader.eventEnd(batch, starts[k] as number, () => '');
      const last = k === 1 ? (starts[1] as number) + 1 : (ends[k] as number);
      expect(end).toBe(k === 1 ? -1 : last);
      batch.add(starts[k] as number, last);
    }
    reader.read(batch, '');
    expect(hashesOf(reader, 4)).toEqual([expected[0], undefined, undefined, undefined]);
    // Events after it are still proven (views), only not chained.
    expect(reader.view(2)).toBeDefined();
    expect(reader.eventText(2)).toBeDefined();
  });
});
