import { describe, expect, it } from 'vitest';
import { eventsOf, expectShape, recordValid } from '../../../test/support/record.js';
import { reasoning } from './reasoning.js';
import { tool } from './tool.js';

describe('reasoning', () => {
  it('records text and label (null when absent); it enters the chain but not the cassette', async () => {
    const { record } = await recordValid(
      () => {
        reasoning('first, check the order', 'plan');
        reasoning('then refund');
      },
      { runId: 'run_reason01' },
    );
    const notes = eventsOf(record, 'reasoning');
    for (const note of notes) expectShape(note, 'run_reason01');
    expect(notes.map((n) => [n['text'], n['label'], n.parent_span_id, n.span_id])).toEqual([
      ['first, check the order', 'plan', 'run', 's1'],
      ['then refund', null, 'run', 's2'],
    ]);
    expect(notes.every((n) => n['ts_start'] === n['ts_end'])).toBe(true);
    expect(record.manifest.replay['entry_count']).toBe(0);
  });

  it('a note inside a tool is a child of the tool span', async () => {
    const { record } = await recordValid(() => tool('think', null, () => reasoning('inside')));
    const [note] = eventsOf(record, 'reasoning');
    expect(note?.parent_span_id).toBe(eventsOf(record, 'tool')[0]?.span_id);
  });

  it('checks its arguments, and does nothing outside a run', () => {
    expect(() => reasoning(1 as never)).toThrow(TypeError);
    expect(() => reasoning('text', 2 as never)).toThrow(/label/);
    expect(reasoning('nowhere')).toBeUndefined();
  });
});
