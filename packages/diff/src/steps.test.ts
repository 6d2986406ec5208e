import { describe, expect, it } from 'vitest';
import { callName } from './steps.js';

describe('callName', () => {
  it('names a call by its model id, tool name or env kind as written', () => {
    expect(callName({ type: 'llm', model: { model_id: 'gpt-4o' } })).toBe('gpt-4o');
    expect(callName({ type: 'tool', tool_name: 'lookup' })).toBe('lookup');
    expect(callName({ type: 'env', kind: 'clock' })).toBe('clock');
  });

  it('gives a missing or null name as empty and a number as JavaScript prints it', () => {
    expect(callName({ type: 'llm' })).toBe('');
    expect(callName({ type: 'tool', tool_name: null })).toBe('');
    expect(callName({ type: 'env', kind: 7 })).toBe('7');
  });

  it('keeps two different object names apart (a malformed record), not both "[object Object]"', () => {
    const a = callName({ type: 'tool', tool_name: { n: 1 } });
    const b = callName({ type: 'tool', tool_name: { n: 2 } });
    expect(a).toBe('{"n":1}');
    expect(a).not.toBe(b);
  });
});
