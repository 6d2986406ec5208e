import { describe, expect, it } from 'vitest';
import { RunbackError } from '../../core/errors.js';
import { toJson, toJsonObject } from './json.js';

describe('toJson', () => {
  it('turns Dates into ISO strings, bytes into base64, URLs into text and Errors into {name, message}', () => {
    const error = new TypeError('bad chunk');
    const value = {
      timestamp: new Date('2026-01-05T10:00:00.123Z'),
      data: new Uint8Array([104, 105]),
      view: new Uint8Array([0, 1, 2, 255]).subarray(1, 3),
      buffer: new Uint8Array([1, 2]).buffer,
      url: new URL('https://example.com/a.png'),
      error,
      invalid: new Date(Number.NaN),
    };
    expect(toJson(value, 'test')).toEqual({
      timestamp: '2026-01-05T10:00:00.123Z',
      data: 'aGk=',
      view: 'AQI=',
      buffer: 'AQI=',
      url: 'https://example.com/a.png',
      error: { name: 'TypeError', message: 'bad chunk' },
      invalid: null,
    });
  });

  it('leaves out undefined members and functions as JSON.stringify does, and copies', () => {
    const inner = { a: 1 };
    const value = { inner, gone: undefined, fn: () => 1, list: [1, undefined, () => 2, 'x'] };
    const copy = toJsonObject(value, 'test');
    expect(copy).toEqual({ inner: { a: 1 }, list: [1, null, null, 'x'] });
    expect(Object.keys(copy)).toEqual(['inner', 'list']);
    expect(copy['inner']).not.toBe(inner);
  });

  it('keeps an own __proto__ member as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as object;
    const copy = toJsonObject(value, 'test');
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('passes NaN through for the recorder to refuse, and refuses a cycle itself', () => {
    expect(toJson({ n: Number.NaN }, 'test')).toEqual({ n: Number.NaN });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    let thrown: unknown;
    try {
      toJson(cyclic, 'AI SDK stream part');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RunbackError);
    expect(thrown).toMatchObject({
      code: 'VALUE_NOT_JSON',
      message: 'AI SDK stream part: expected JSON data, got a circular reference',
    });
  });

  it('accepts the same object twice when it is not its own ancestor', () => {
    const shared = { k: 1 };
    expect(toJson([shared, shared], 'test')).toEqual([{ k: 1 }, { k: 1 }]);
  });
});
