import { describe, expect, it } from 'vitest';
import {
  eventsOf,
  expectShape,
  recordValid,
  type RecordJson,
} from '../../../test/support/record.js';
import { tool, wrapTools } from './tool.js';

describe('tool', () => {
  it('records name, call id, input, output, latency and metadata', async () => {
    const { output, record } = await recordValid(
      () =>
        tool('search', { q: 'refund policy' }, async (input) => ({ hits: [input.q] }), {
          toolCallId: 'call_1',
          metadata: { source: 'kb' },
        }),
      { runId: 'run_tool0001' },
    );
    expect(output).toEqual({ hits: ['refund policy'] });
    const [event] = eventsOf(record, 'tool');
    expectShape(event!, 'run_tool0001', ['metadata']);
    expect(event).toMatchObject({
      tool_name: 'search',
      tool_call_id: 'call_1',
      input: { q: 'refund policy' },
      output: { hits: ['refund policy'] },
      error: null,
      metadata: { source: 'kb' },
      parent_span_id: 'run',
    });
    expect(typeof event?.['latency_ms']).toBe('number');
  });

  it('records a throw with its error and rethrows the very same value', async () => {
    const failure = new TypeError('no such order');
    const { record } = await recordValid(async () => {
      const caught = await tool('get_order', { id: 1 }, () => {
        throw failure;
      }).catch((err: unknown) => err);
      expect(caught).toBe(failure);
    });
    const [event] = eventsOf(record, 'tool');
    expect(event).toMatchObject({
      output: null,
      error: { name: 'TypeError', message: 'no such order' },
    });
    expect((event?.['error'] as { stack?: string }).stack).toBe(failure.stack);
  });

  it('stores undefined input and output as null', async () => {
    const { record } = await recordValid(() => tool('noop', undefined, () => undefined));
    expect(eventsOf(record, 'tool')[0]).toMatchObject({ input: null, output: null });
  });

  it('stores a key projection, which shapes the replay key but not the stored input', async () => {
    const quote = (nonce: string, keyProjection?: { drop: string[] }) =>
      recordValid(() =>
        tool(
          'quote',
          { sku: 'A1', nonce },
          () => 9.5,
          keyProjection === undefined ? {} : { keyProjection },
        ),
      );
    const projected = await Promise.all([
      quote('n-1', { drop: ['nonce'] }),
      quote('n-2', { drop: ['nonce'] }),
    ]);
    const plain = await Promise.all([quote('n-1'), quote('n-2')]);
    expect(eventsOf(projected[0].record, 'tool')[0]).toMatchObject({
      input: { sku: 'A1', nonce: 'n-1' },
      key_projection: { drop: ['nonce'] },
    });
    const cassette = (r: { record: RecordJson }) => r.record.manifest.replay['cassette_digest'];
    expect(cassette(projected[0])).toBe(cassette(projected[1]));
    expect(cassette(plain[0])).not.toBe(cassette(plain[1]));
  });

  it('rejects a malformed key projection before the tool runs, and the run stays sound', async () => {
    let ran = false;
    const { record } = await recordValid(async () => {
      await expect(
        tool('quote', { sku: 'A1' }, () => (ran = true), {
          keyProjection: { drop: 'nonce' } as never,
        }),
      ).rejects.toThrow(TypeError);
      return tool('after', 1, (x) => x);
    });
    expect(ran).toBe(false);
    expect(eventsOf(record, 'tool').map((e) => e['tool_name'])).toEqual(['after']);
  });

  it.each<[string, unknown, unknown]>([
    ['an empty name', '', () => 1],
    ['a name that is not a string', 7, () => 1],
    ['fn that is not a function', 'ok', 'not a function'],
  ])('throws a TypeError for %s, in or out of a run', async (_, name, fn) => {
    await expect(tool(name as never, 1, fn as never)).rejects.toThrow(TypeError);
    await recordValid(async () => {
      await expect(tool(name as never, 1, fn as never)).rejects.toThrow(TypeError);
    });
  });
});

describe('wrapTools', () => {
  it('records each call under its map key and returns a new map', async () => {
    const tools = {
      add: (input: { a: number; b: number }) => input.a + input.b,
      echo: async (s: string) => s,
    };
    const wrapped = wrapTools(tools, { metadata: { via: 'map' } });
    expect(wrapped).not.toBe(tools);
    const { output, record } = await recordValid(async () => [
      await wrapped.add({ a: 2, b: 3 }),
      await wrapped.echo('hi'),
    ]);
    expect(output).toEqual([5, 'hi']);
    expect(
      eventsOf(record, 'tool').map((e) => [e['tool_name'], e['input'], e['output'], e.metadata]),
    ).toEqual([
      ['add', { a: 2, b: 3 }, 5, { via: 'map' }],
      ['echo', 'hi', 'hi', { via: 'map' }],
    ]);
    // Outside a run the wrapped functions are the tools (returning promises).
    expect(await wrapped.add({ a: 1, b: 1 })).toBe(2);
  });

  it('throws a TypeError for a map that is not an object or holds a non-function', () => {
    expect(() => wrapTools(null as never)).toThrow(TypeError);
    expect(() => wrapTools({ bad: 1 } as never)).toThrow(/tools\.bad/);
  });
});
