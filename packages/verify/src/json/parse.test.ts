import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH, parseJsonStrict, readJsonStrict } from './index.js';
import type { JsonParseResult, JsonReadError } from './index.js';

/** The error of a rejected result (fails the test if the result is ok). */
function errorOf(r: JsonParseResult): JsonReadError {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
}

function valueOf(r: JsonParseResult): unknown {
  if (!r.ok) throw new Error(`expected a value, got ${r.error.code}: ${r.error.message}`);
  return r.value;
}

const nested = (depth: number, open: string, close: string, inner = ''): string =>
  open.repeat(depth) + inner + close.repeat(depth);

describe('parseJsonStrict: valid documents', () => {
  const docs = [
    '{}',
    '[]',
    '0',
    '-0',
    '1.5e-7',
    '"text"',
    'true',
    'false',
    'null',
    ' \t\r\n {"a" : [1, 2.5, -3e2, true, false, null, "x"] } \n',
    '{"events":[{"index":0,"type":"llm_call","request":{"model":"m","temperature":0.7}},{"index":1}]}',
    '"caf\\u00e9 \\"quoted\\" \\\\ \\/ \\b\\f\\n\\r\\t 日本 😀"',
    '{"":1,"a":{"":2}}',
    '[[[[[]]]],{"a":{"b":{"c":[]}}}]',
    '123456789012345678901234567890',
    '[9007199254740993, 1e308, -1.7976931348623157e308, 5e-324, 1e-400]',
    '{"a":1,"b":2,"A":3,"a ":4}',
    '{"1":1,"01":2,"1.0":3}',
  ];
  for (const doc of docs) {
    it(`equals JSON.parse for ${JSON.stringify(doc).slice(0, 60)}`, () => {
      expect(valueOf(parseJsonStrict(doc))).toEqual(JSON.parse(doc));
      expect(valueOf(readJsonStrict(doc))).toEqual(JSON.parse(doc));
      expect(valueOf(readJsonStrict(new TextEncoder().encode(doc)))).toEqual(JSON.parse(doc));
    });
  }

  it('keeps -0 and large integers as JSON.parse does (precision loss accepted)', () => {
    expect(Object.is(valueOf(parseJsonStrict('-0')), -0)).toBe(true);
    expect(valueOf(parseJsonStrict('12345678901234567890'))).toBe(12345678901234567000);
  });

  it('treats __proto__ as an ordinary own data member', () => {
    const v = valueOf(parseJsonStrict('{"__proto__":{"polluted":true},"a":1}')) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(v, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(valueOf(parseJsonStrict('{"__proto__":1}'))).toEqual(JSON.parse('{"__proto__":1}'));
  });

  it('keeps lone surrogate escapes as lone surrogates, in values and member names', () => {
    expect(valueOf(parseJsonStrict('"\\ud800"'))).toBe('\ud800');
    expect(valueOf(parseJsonStrict('"a\\udc00b"'))).toBe('a\udc00b');
    const v = valueOf(parseJsonStrict('{"\\udfff":1,"\\ud800":2}')) as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['\udfff', '\ud800']);
  });

  it('still works when Object.prototype has an enumerable property (for…in fallback)', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto['injected'] = 1;
    try {
      expect(valueOf(parseJsonStrict('{"a":{"b":1},"c":[{"d":2}]}'))).toEqual({
        a: { b: 1 },
        c: [{ d: 2 }],
      });
      expect(errorOf(parseJsonStrict('{"a":{"b":1,"b":2}}')).code).toBe('JSON_DUPLICATE_MEMBER');
    } finally {
      delete proto['injected'];
    }
  });
});

describe('parseJsonStrict: duplicate member names', () => {
  const cases: Array<[string, string, string]> = [
    ['{"a":1,"a":2}', 'a', ''],
    ['{"a":1,"\\u0061":2}', 'a', ''],
    ['{"\\u0061":1,"a":2}', 'a', ''],
    ['{"a\\/b":1,"a/b":2}', 'a/b', ''],
    ['{"\\ud800":1,"\\uD800":2}', '\ud800', ''],
    ['{"":1,"":2}', '', ''],
    ['{"__proto__":1,"__proto__":2}', '__proto__', ''],
    ['{"__proto__":{},"\\u005f_proto__":null}', '__proto__', ''],
    [
      '{"events":[{},{},{},{"request":{"amount":1,"note":"x","amount":2}}]}',
      'amount',
      '/events/3/request',
    ],
    ['[{"a":1},{"a":1,"b":2,"a":3}]', 'a', '/1'],
    ['[[0,{"x":[{"k":1,"k":1}]}]]', 'k', '/0/1/x/0'],
    ['{"a/b":{"c~d":{"x":1,"x":2}}}', 'x', '/a~1b/c~0d'],
    ['{"a":1,"b":2,"c":3,"b":4}', 'b', ''],
  ];
  for (const [doc, name, pointer] of cases) {
    it(`rejects ${doc}`, () => {
      const e = errorOf(parseJsonStrict(doc));
      expect(e.code).toBe('JSON_DUPLICATE_MEMBER');
      expect(e.pointer).toBe(pointer);
      expect(e.message).toContain(`duplicate member name ${JSON.stringify(name)} in `);
      expect(e.message).toContain('expected each member name once per object');
      expect(typeof e.offset).toBe('number');
    });
  }

  it('names the member and the pointer in the message', () => {
    const e = errorOf(parseJsonStrict('{"events":[{},{},{},{"request":{"amount":1,"amount":2}}]}'));
    expect(e.message).toBe(
      'duplicate member name "amount" in /events/3/request (expected each member name once per object)',
    );
    expect(e.offset).toBe('{"events":[{},{},{},{"request":{"amount":1,'.length);
    const top = errorOf(parseJsonStrict('{"a":1,"a":2}'));
    expect(top.message).toBe(
      'duplicate member name "a" in the top-level object (expected each member name once per object)',
    );
  });

  it('accepts the same name in different objects', () => {
    const doc = '{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":{"a":{"a":4}}}';
    expect(valueOf(parseJsonStrict(doc))).toEqual(JSON.parse(doc));
  });

  it('reports the first duplicate in text order', () => {
    const e = errorOf(parseJsonStrict('{"x":{"b":1,"b":2},"a":1,"a":2}'));
    expect(e.pointer).toBe('/x');
  });
});

describe('parseJsonStrict: nesting depth', () => {
  it(`accepts ${DEFAULT_MAX_DEPTH} levels of arrays and of objects`, () => {
    expect(DEFAULT_MAX_DEPTH).toBe(512);
    const arrays = nested(512, '[', ']');
    expect(valueOf(parseJsonStrict(arrays))).toEqual(JSON.parse(arrays));
    const objects = nested(511, '{"a":', '}', '{}');
    expect(valueOf(parseJsonStrict(objects))).toEqual(JSON.parse(objects));
    const mixed = nested(256, '[{"k":', '}]', '1');
    expect(valueOf(parseJsonStrict(mixed))).toEqual(JSON.parse(mixed));
  });

  it('rejects 513 levels with JSON_TOO_DEEP at the first container too deep', () => {
    const e = errorOf(parseJsonStrict(nested(513, '[', ']')));
    expect(e.code).toBe('JSON_TOO_DEEP');
    expect(e.offset).toBe(512);
    expect(e.message).toContain('more than 512 nested arrays/objects');
    expect(e.pointer).toBe('/0'.repeat(512));
    const o = errorOf(parseJsonStrict(nested(512, '{"a":', '}', '{}')));
    expect(o.code).toBe('JSON_TOO_DEEP');
    expect(o.pointer).toBe('/a'.repeat(512));
  });

  it('rejects 100 000 levels without throwing, balanced or not', () => {
    for (const doc of [
      '['.repeat(100_000),
      nested(100_000, '[', ']'),
      nested(100_000, '{"a":', '}', '1'),
    ]) {
      const e = errorOf(parseJsonStrict(doc));
      expect(e.code).toBe('JSON_TOO_DEEP');
    }
  });

  it('honours maxDepth', () => {
    expect(valueOf(parseJsonStrict('[[1]]', { maxDepth: 2 }))).toEqual([[1]]);
    expect(errorOf(parseJsonStrict('[[[1]]]', { maxDepth: 2 })).code).toBe('JSON_TOO_DEEP');
    expect(valueOf(parseJsonStrict('"scalar"', { maxDepth: 0 }))).toBe('scalar');
    expect(errorOf(parseJsonStrict('[]', { maxDepth: 0 })).code).toBe('JSON_TOO_DEEP');
    const deep = nested(2000, '[', ']');
    expect(valueOf(parseJsonStrict(deep, { maxDepth: 2000 }))).toEqual(JSON.parse(deep));
    expect(valueOf(readJsonStrict(deep, { maxDepth: 2000 }))).toEqual(JSON.parse(deep));
  });

  it('uses the default for a meaningless maxDepth', () => {
    for (const maxDepth of [Number.NaN, -1]) {
      expect(valueOf(parseJsonStrict(nested(512, '[', ']'), { maxDepth }))).toBeDefined();
      expect(errorOf(parseJsonStrict(nested(513, '[', ']'), { maxDepth })).code).toBe(
        'JSON_TOO_DEEP',
      );
    }
    expect(errorOf(parseJsonStrict('[[[1]]]', { maxDepth: 2.9 })).code).toBe('JSON_TOO_DEEP');
  });

  it('reports a syntax error that comes before the depth limit', () => {
    const e = errorOf(parseJsonStrict('[x' + '['.repeat(1000)));
    expect(e.code).toBe('JSON_SYNTAX');
    expect(e.offset).toBe(1);
  });
});

describe('parseJsonStrict: numbers', () => {
  it('rejects numbers that overflow to Infinity, naming the pointer', () => {
    const cases: Array<[string, string, number]> = [
      ['1e400', '', 0],
      ['[-1e999]', '/0', 1],
      ['{"a":{"b":[0, 1.8e308]}}', '/a/b/1', 14],
      ['{"x~/y":123e307}', '/x~0~1y', 8],
      [`[${'9'.repeat(400)}]`, '/0', 1],
      ['9'.repeat(309), '', 0],
      [`{"a":-${'1'.repeat(310)}.5}`, '/a', 5],
      [`[1,${'2'.repeat(100)}e209]`, '/1', 3],
    ];
    for (const [doc, pointer, offset] of cases) {
      const e = errorOf(parseJsonStrict(doc));
      expect(e.code).toBe('JSON_NUMBER_OUT_OF_RANGE');
      expect(e.pointer).toBe(pointer);
      expect(e.offset).toBe(offset);
      expect(e.message).toContain('out of range');
    }
    expect(errorOf(parseJsonStrict('{"amount":1e400}')).message).toContain('at /amount');
  });

  it('accepts the largest finite numbers, underflow and precision loss', () => {
    for (const doc of [
      '1e308',
      '-1e308',
      '1.7976931348623157e308',
      '1e-400',
      '-1e-999',
      '0.1e309',
      '9'.repeat(300),
      '1'.repeat(309),
      `${'1'.repeat(100)}e208`,
      `${'1'.repeat(400)}e-100`,
    ]) {
      expect(valueOf(parseJsonStrict(doc))).toBe(JSON.parse(doc));
    }
  });
});

describe('parseJsonStrict: syntax errors', () => {
  const cases: Array<[string, RegExp, number]> = [
    ['{"a":', /^unexpected end of input at line 1, column 6 \(offset 5\): expected a value/, 5],
    ['[1,2', /^unexpected end of input .*expected ',' or '\]'.*truncated/, 4],
    ['{"a":1', /^unexpected end of input .*expected ',' or '}'/, 6],
    ['{', /^unexpected end of input .*expected a member name or '}'/, 1],
    [
      '"abc',
      /^unexpected end of input .*expected '"' to close the string that starts at line 1, column 1/,
      4,
    ],
    ['tru', /^unexpected end of input .*expected 'true'/, 3],
    ['-', /^unexpected end of input/, 1],
    ['{} x', /^unexpected character 'x' after the JSON value at line 1, column 4/, 3],
    ['1 2', /^unexpected character '2' after the JSON value/, 2],
    ['[1]]', /^unexpected character '\]' after the JSON value/, 3],
    [
      'NaN',
      /^unexpected character 'N' .*expected a value \(JSON has no NaN, Infinity or undefined\)/,
      0,
    ],
    ['[-Infinity]', /^unexpected character 'I' .*expected a digit after '-'/, 2],
    ["{'a':1}", /^unexpected character "'" .*JSON strings use double quotes/, 1],
    ["['a']", /^unexpected character "'" .*expected a value \(JSON strings use double quotes\)/, 1],
    ['[1,]', /trailing commas are not allowed/, 3],
    ['{"a":1,}', /trailing commas are not allowed/, 7],
    ['{a:1}', /member names must be in double quotes/, 1],
    ['{"a" 1}', /expected ':' after the member name/, 5],
    ['[1 2]', /^unexpected character '2' .*expected ',' or '\]'/, 3],
    ['01', /^invalid number .*leading zeros are not allowed/, 0],
    ['1.', /^unexpected end of input .*expected a digit after the decimal point/, 2],
    ['1.e5', /^unexpected character 'e' .*expected a digit after the decimal point/, 2],
    ['1e+', /^unexpected end of input .*expected a digit in the exponent/, 3],
    ['+1', /numbers must not start with '\+'/, 0],
    ['.5', /numbers must start with a digit/, 0],
    ['"a\nb"', /^unescaped control character U\+000A in a string/, 2],
    ['"\\x"', /^invalid escape sequence '\\x' in a string/, 1],
    ['"\\u12g4"', /\\u must be followed by 4 hexadecimal digits/, 1],
    ['[1] // c', /^unexpected character '\/' after the JSON value/, 4],
    ['/* c */ 1', /JSON has no comments/, 0],
    ['\ufeff{}', /^unexpected character U\+FEFF .*byte order mark/, 0],
    ['\u00a0{}', /^unexpected character U\+00A0/, 0],
    ['{"a":1}\u0000', /^unexpected character U\+0000 after the JSON value/, 7],
    ['nul', /^unexpected end of input/, 3],
    ['nulL', /^unexpected character 'L' .*expected 'null'/, 3],
    ['[true false]', /^unexpected character 'f' .*expected ',' or '\]'/, 6],
    ['{"a":1]', /^unexpected character '\]' .*expected ',' or '}'/, 6],
  ];
  for (const [doc, message, offset] of cases) {
    it(`rejects ${JSON.stringify(doc)}`, () => {
      expect(() => JSON.parse(doc)).toThrow(SyntaxError);
      const e = errorOf(parseJsonStrict(doc));
      expect(e.code).toBe('JSON_SYNTAX');
      expect(e.message).toMatch(message);
      expect(e.offset).toBe(offset);
    });
  }

  it('gives line and column on multi-line text', () => {
    const e = errorOf(parseJsonStrict('{\n  "a": 1,\n  "b": x\n}'));
    expect(e.message).toMatch(
      /^unexpected character 'x' at line 3, column 8 \(offset 19\): expected a value/,
    );
  });

  it('rejects empty and whitespace-only text with JSON_EMPTY', () => {
    for (const doc of ['', ' ', '\n\t\r ']) {
      const e = errorOf(parseJsonStrict(doc));
      expect(e.code).toBe('JSON_EMPTY');
      expect(e.message).toMatch(/empty/);
    }
    expect(errorOf(readJsonStrict(new Uint8Array())).code).toBe('JSON_EMPTY');
    expect(errorOf(readJsonStrict(new Uint8Array([0xef, 0xbb, 0xbf, 0x20]))).code).toBe(
      'JSON_EMPTY',
    );
    expect(errorOf(readJsonStrict('\ufeff')).code).toBe('JSON_EMPTY');
  });

  it('prefers a syntax error over an earlier duplicate or out-of-range number', () => {
    expect(errorOf(parseJsonStrict('{"a":1,"a":2,')).code).toBe('JSON_SYNTAX');
    expect(errorOf(parseJsonStrict('[1e999,')).code).toBe('JSON_SYNTAX');
  });

  it('never throws, even for values that are not text', () => {
    const inputs: unknown[] = [undefined, null, 42, {}, [], Symbol('s'), new ArrayBuffer(2)];
    for (const input of inputs) {
      expect(errorOf(parseJsonStrict(input as string)).code).toBe('JSON_SYNTAX');
      expect(errorOf(readJsonStrict(input as string)).code).toBe('JSON_SYNTAX');
    }
    const hostile = {
      get maxDepth(): number {
        throw new Error('boom');
      },
    };
    expect(() => parseJsonStrict('[]', hostile)).not.toThrow();
  });
});

describe('readJsonStrict', () => {
  const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);
  const enc = (s: string): number[] => [...new TextEncoder().encode(s)];

  it('drops a leading byte order mark from text and from bytes, once', () => {
    expect(valueOf(readJsonStrict('\ufeff{"a":1}'))).toEqual({ a: 1 });
    expect(valueOf(readJsonStrict(bytes(0xef, 0xbb, 0xbf, ...enc('[1]'))))).toEqual([1]);
    expect(errorOf(readJsonStrict('\ufeff\ufeff{}')).code).toBe('JSON_SYNTAX');
    expect(
      errorOf(readJsonStrict(bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...enc('{}')))).code,
    ).toBe('JSON_SYNTAX');
    // Offsets index the text after the byte order mark.
    expect(errorOf(readJsonStrict('\ufeff[x]')).offset).toBe(1);
  });

  it('rejects ill-formed UTF-8 with the byte offset of the bad sequence', () => {
    const cases: Array<[Uint8Array, number, RegExp]> = [
      [bytes(...enc('["a'), 0x80, ...enc('"]')), 3, /unexpected continuation byte 80/],
      [bytes(...enc('["'), 0xc0, 0xaf, ...enc('"]')), 2, /overlong encoding \(C0 AF\)/],
      [bytes(...enc('["'), 0xe0, 0x80, 0xaf, ...enc('"]')), 2, /overlong encoding/],
      [
        bytes(...enc('["'), 0xed, 0xa0, 0x80, ...enc('"]')),
        2,
        /UTF-16 surrogate encoded in UTF-8 \(ED A0 80\)/,
      ],
      [
        bytes(...enc('["x"]'), 0xf0, 0x9f, 0x98),
        5,
        /truncated sequence at end of input \(F0 9F 98\)/,
      ],
      [bytes(...enc('["'), 0xf0, 0x9f, 0x98, ...enc('"]')), 2, /truncated sequence/],
      [bytes(...enc('["'), 0xff, ...enc('"]')), 2, /byte FF never occurs in UTF-8/],
      [bytes(...enc('["'), 0xf4, 0x90, 0x80, 0x80, ...enc('"]')), 2, /above U\+10FFFF/],
      [bytes(0xef, 0xbb, 0xbf, 0x80), 3, /continuation/],
    ];
    for (const [input, offset, reason] of cases) {
      const e = errorOf(readJsonStrict(input));
      expect(e.code).toBe('JSON_INVALID_UTF8');
      expect(e.offset).toBe(offset);
      expect(e.message).toContain(`byte offset ${offset}`);
      expect(e.message).toMatch(reason);
    }
  });

  it('reads any Uint8Array view, Buffer included', () => {
    const backing = new TextEncoder().encode('xx{"é":[1,"😀"]}yy');
    const view = backing.subarray(2, backing.length - 2);
    expect(valueOf(readJsonStrict(view))).toEqual({ é: [1, '😀'] });
    expect(valueOf(readJsonStrict(Buffer.from('{"a":[true]}')))).toEqual({ a: [true] });
    const otherRealm = runInNewContext('new Uint8Array([0x5b, 0x31, 0x5d])') as Uint8Array;
    expect(otherRealm instanceof Uint8Array).toBe(false);
    expect(valueOf(readJsonStrict(otherRealm))).toEqual([1]);
    expect(errorOf(readJsonStrict(new Uint16Array([0x5b5b]) as unknown as Uint8Array)).code).toBe(
      'JSON_SYNTAX',
    );
  });

  it('applies the same strict rules after decoding', () => {
    expect(errorOf(readJsonStrict(new TextEncoder().encode('{"a":1,"a":2}'))).code).toBe(
      'JSON_DUPLICATE_MEMBER',
    );
    expect(errorOf(readJsonStrict(new TextEncoder().encode('[1e400]'))).code).toBe(
      'JSON_NUMBER_OUT_OF_RANGE',
    );
    expect(errorOf(readJsonStrict('[[1]]', { maxDepth: 1 })).code).toBe('JSON_TOO_DEEP');
  });
});
