import { describe, expect, it } from 'vitest';
import { deferredTexts, withDeferredEvents } from './deferred-events.js';

describe('withDeferredEvents', () => {
  it('keeps every text exactly, across joined chunks, until the events are read', () => {
    const originals = Array.from({ length: 2500 }, (_, i) =>
      JSON.stringify({ i, s: 'x'.repeat(i % 13), t: i % 2 === 0 ? 'é' : '"' }),
    );
    const texts = [...originals];
    const record = withDeferredEvents({ head: 1 }, texts);
    expect(texts).toEqual([]);
    const kept = deferredTexts(record);
    expect(kept?.length).toBe(2500);
    for (let i = 0; i < originals.length; i++) expect(kept?.text(i)).toBe(originals[i]);
    expect(record.events).toEqual(originals.map((t) => JSON.parse(t) as unknown));
    expect(record.events).toBe(record.events);
    expect(deferredTexts(record)).toBeUndefined();
    expect(JSON.parse(JSON.stringify(record))).toEqual({
      head: 1,
      events: originals.map((t) => JSON.parse(t) as unknown),
    });
  });
});
