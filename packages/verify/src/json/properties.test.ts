import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseJson } from './diagnose/index.js';
import { parseJsonStrict, readJsonStrict } from './index.js';
import { prescanJson } from './prescan.js';

const escapeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');

/** Writes a member name, sometimes with a character \u-escaped (same name after unescaping). */
function nameText(name: string, escapeAt: number | undefined): string {
  if (escapeAt === undefined || name.length === 0) return JSON.stringify(name);
  const k = escapeAt % name.length;
  const u = '\\u' + name.charCodeAt(k).toString(16).padStart(4, '0');
  return (
    JSON.stringify(name.slice(0, k)).slice(0, -1) + u + JSON.stringify(name.slice(k + 1)).slice(1)
  );
}

/**
 * Serializes `value`; in the `target`-th object (document order, modulo the number of objects)
 * writes one member name a second time. Returns the text and the pointer of that object.
 */
function withDuplicate(
  value: unknown,
  target: number,
  pick: number,
  escapeAt: number | undefined,
): { text: string; pointer: string } {
  let count = 0;
  const countObjects = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(countObjects);
    else if (typeof v === 'object' && v !== null) {
      count++;
      Object.values(v).forEach(countObjects);
    }
  };
  countObjects(value);
  const wanted = target % count;
  let seen = 0;
  let pointer = '';
  const write = (v: unknown, path: string): string => {
    if (Array.isArray(v)) return '[' + v.map((e, i) => write(e, `${path}/${i}`)).join(',') + ']';
    if (typeof v !== 'object' || v === null) return JSON.stringify(v);
    const here = seen++;
    const entries = Object.entries(v);
    const members = entries.map(
      ([k, e]) => JSON.stringify(k) + ':' + write(e, `${path}/${escapeToken(k)}`),
    );
    if (here === wanted) {
      pointer = path;
      if (entries.length === 0) {
        members.push('"dup":1', nameText('dup', escapeAt) + ':2');
      } else {
        const at = pick % entries.length;
        const [k] = entries[at] as [string, unknown];
        members.splice(pick % (members.length + 1), 0, nameText(k, escapeAt) + ':null');
      }
    }
    return '{' + members.join(',') + '}';
  };
  const text = write(value, '');
  return { text, pointer };
}

/** Token soup: mostly JSON-looking fragments, often malformed. */
const jsonish = fc
  .array(
    fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      ' ',
      '\n',
      '"a"',
      '"b"',
      '"\\u0061"',
      '"x\\"y"',
      '"\\\\"',
      '"',
      '\\',
      '1',
      '-',
      '0',
      '.5',
      'e9',
      '1e400',
      'true',
      'nul',
      'null',
      "'",
      '\u2028',
      '\ud800',
      '__proto__',
      '"__proto__"',
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

/** Valid-looking JSON text built from few member names, so duplicates (escaped or not) are common. */
const { doc: fewNames } = fc.letrec<{ doc: string; value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      '1',
      '-0',
      '1e400',
      '-1e999',
      '2.5e-3',
      'true',
      'null',
      '"s"',
      '"\\ud800"',
      '[]',
      '{}',
    ),
    fc.array(tie('value'), { maxLength: 4 }).map((a) => '[' + a.join(',') + ']'),
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            '"a"',
            '"b"',
            '"\\u0061"',
            '"__proto__"',
            '"\\u005f_proto__"',
            '""',
            '"a/b"',
          ),
          tie('value'),
        ),
        { maxLength: 4 },
      )
      .map((m) => '{' + m.map(([k, v]) => k + ':' + v).join(',') + '}'),
  ),
  doc: tie('value'),
}));

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'binary-ascii', maxLength: 60 }),
  fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    maxLength: 60,
  }),
  jsonish,
  fewNames,
);

const syntaxOk = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('properties', () => {
  it('parseJsonStrict(JSON.stringify(v)) equals JSON.parse of the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (v, pretty) => {
        const text = pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
        const r = parseJsonStrict(text);
        expect(r).toEqual({ ok: true, value: JSON.parse(text) });
        expect(readJsonStrict(new TextEncoder().encode(text))).toEqual({
          ok: true,
          value: JSON.parse(text),
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('a member name written twice in any object is always rejected, with that object’s pointer', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.nat(),
        fc.nat(),
        fc.option(fc.nat(), { nil: undefined }),
        (v, target, pick, escapeAt) => {
          const { text, pointer } = withDuplicate({ root: v }, target, pick, escapeAt);
          const r = parseJsonStrict(text);
          expect(r.ok).toBe(false);
          if (!r.ok) {
            expect(r.error.code).toBe('JSON_DUPLICATE_MEMBER');
            expect(r.error.pointer).toBe(pointer);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('the pre-scan never throws, and parseJsonStrict never throws, on arbitrary text', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 0, max: 8 }), (text, maxDepth) => {
        expect(() => prescanJson(text, maxDepth)).not.toThrow();
        expect(() => parseJsonStrict(text, { maxDepth })).not.toThrow();
        expect(() => readJsonStrict(text, { maxDepth })).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with JSON.parse on what is syntactically valid', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const ok = syntaxOk(text);
        const r = parseJsonStrict(text, { maxDepth: 1_000_000 });
        const d = diagnoseJson(text, 1_000_000);
        if (ok) {
          expect(d?.code ?? 'none').not.toMatch(/^JSON_(SYNTAX|EMPTY)$/);
          if (r.ok) expect(r.value).toEqual(JSON.parse(text));
          else
            expect(['JSON_DUPLICATE_MEMBER', 'JSON_NUMBER_OUT_OF_RANGE']).toContain(r.error.code);
        } else {
          expect(r.ok).toBe(false);
          if (!r.ok) expect(['JSON_SYNTAX', 'JSON_EMPTY']).toContain(r.error.code);
          expect(['JSON_SYNTAX', 'JSON_EMPTY']).toContain(d?.code);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('single-character edits of valid documents: same validity as JSON.parse, never a throw', () => {
    const edited = fc
      .tuple(
        fc.jsonValue(),
        fc.nat(),
        fc.constantFrom('delete', 'insert', 'replace'),
        fc.constantFrom('"', '\\', ',', ':', '{', '}', '[', ']', 'e', '-', '0', ' ', 'x', '\u0000'),
      )
      .map(([v, at, op, ch]) => {
        const t = JSON.stringify(v);
        const k = t.length === 0 ? 0 : at % t.length;
        if (op === 'delete') return t.slice(0, k) + t.slice(k + 1);
        if (op === 'insert') return t.slice(0, k) + ch + t.slice(k);
        return t.slice(0, k) + ch + t.slice(k + 1);
      });
    fc.assert(
      fc.property(edited, (text) => {
        const r = parseJsonStrict(text);
        if (syntaxOk(text)) {
          if (r.ok) expect(r.value).toEqual(JSON.parse(text));
          else
            expect([
              'JSON_DUPLICATE_MEMBER',
              'JSON_NUMBER_OUT_OF_RANGE',
              'JSON_TOO_DEEP',
            ]).toContain(r.error.code);
        } else {
          expect(r.ok).toBe(false);
          if (!r.ok) expect(['JSON_SYNTAX', 'JSON_EMPTY']).toContain(r.error.code);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the fast path and the exact scanner agree on duplicates and number range', () => {
    fc.assert(
      fc.property(fc.oneof(jsonish, fewNames), (text) => {
        const r = parseJsonStrict(text);
        const d = diagnoseJson(text, 512);
        if (r.ok) expect(d).toBeUndefined();
        else expect(r.error).toEqual(d);
      }),
      { numRuns: 5000 },
    );
  });

  it('the pre-scan member count matches the own keys of valid documents', () => {
    const countKeys = (v: unknown): number =>
      Array.isArray(v)
        ? v.reduce((n: number, e) => n + countKeys(e), 0)
        : typeof v === 'object' && v !== null
          ? Object.values(v).reduce((n: number, e) => n + 1 + countKeys(e), 0)
          : 0;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(prescanJson(text, 10_000)).toMatchObject({ kind: 'ok', members: countKeys(v) });
      }),
      { numRuns: 1000 },
    );
  });

  it('the pre-scan only claims "no duplicates, no overflow" when that is true', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fewNames,
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const scan = prescanJson(text, 512);
          if (scan.kind === 'ok' && scan.proven && syntaxOk(text)) {
            expect(diagnoseJson(text, 512)).toBeUndefined();
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('number literals are rejected exactly when they overflow', () => {
    const digitsOf = (length: number): fc.Arbitrary<string> =>
      fc.string({
        unit: fc.constantFrom('0', '1', '5', '9'),
        minLength: length,
        maxLength: length,
      });
    // Lengths near the 309-digit limit are as likely as short ones.
    const digits = (min: number, max: number): fc.Arbitrary<string> =>
      fc
        .oneof(
          fc.integer({ min, max: Math.min(max, min + 20) }),
          fc.integer({ min: Math.max(min, max - 25), max }),
        )
        .chain(digitsOf);
    const literal = fc
      .tuple(
        fc.boolean(),
        fc.oneof(
          fc.constant('0'),
          fc.tuple(fc.constantFrom('1', '9'), digits(0, 320)).map(([a, b]) => a + b),
        ),
        fc.option(digits(1, 20), { nil: undefined }),
        fc.option(
          fc.tuple(
            fc.constantFrom('e', 'E'),
            fc.constantFrom('', '+', '-'),
            fc.oneof(digits(1, 4), fc.integer({ min: 280, max: 330 }).map(String)),
          ),
          { nil: undefined },
        ),
      )
      .map(
        ([neg, int, frac, exp]) =>
          (neg ? '-' : '') +
          int +
          (frac === undefined ? '' : '.' + frac) +
          (exp === undefined ? '' : exp.join('')),
      );
    fc.assert(
      fc.property(literal, fc.constantFrom('%', '[%]', '{"n":%}', '[1,%,2]'), (lit, shape) => {
        const text = shape.replace('%', lit);
        const r = parseJsonStrict(text);
        if (Number.isFinite(Number(lit))) expect(r).toEqual({ ok: true, value: JSON.parse(text) });
        else expect(r.ok ? 'ok' : r.error.code).toBe('JSON_NUMBER_OUT_OF_RANGE');
      }),
      { numRuns: 3000 },
    );
  });
});
