import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SAMPLE_SECRETS, resolvePointer } from '../../test/support/record.js';
import { REDACTED, Redactor, SECRET_VALUE_PATTERNS } from './index.js';

describe('Redactor: member names', () => {
  const redactor = new Redactor();

  it.each([
    'api_key',
    'apiKey',
    'OPENAI_API_KEY',
    'Authorization',
    'proxy-authorization',
    'x-api-key',
    'password',
    'db_passwd',
    'client_secret',
    'github_token',
    'access_token',
    'cookie',
    'set-cookie',
    'privateKey',
    'aws_secret_access_key',
    'credentials',
    'session_id',
  ])('redacts the whole value of %s, whatever its type', (name) => {
    for (const value of ['plain', 12345, { nested: 'object' }, ['a', 'b'], '']) {
      const { value: out, sites } = redactor.redact({ [name]: value, other: 'kept' });
      expect(out).toEqual({ [name]: REDACTED, other: 'kept' });
      expect(sites).toEqual([`/${name}`]);
    }
  });

  it.each([
    'max_tokens',
    'input_tokens',
    'output_tokens',
    'total_tokens',
    'tokens',
    'tokenizer',
    'keyboard',
  ])('leaves %s alone', (name) => {
    const input = { [name]: 4096, nested: { [name]: 'text' } };
    const { value, sites } = redactor.redact(input);
    expect(value).toBe(input);
    expect(sites).toEqual([]);
  });

  it('keeps booleans, null and undefined under secret-looking names (flags, not secrets)', () => {
    const input = {
      has_token: true,
      password_set: false,
      requires_password: false,
      api_key: null,
      token: undefined,
    };
    const { value, sites } = redactor.redact(input);
    expect(value).toBe(input);
    expect(sites).toEqual([]);
  });

  it('reports nothing for a value that is already redacted', () => {
    expect(redactor.redact({ password: REDACTED }).sites).toEqual([]);
  });
});

describe('Redactor: value patterns', () => {
  const redactor = new Redactor();

  it.each(Object.entries(SAMPLE_SECRETS))(
    'replaces a %s credential inside longer text',
    (_, secret) => {
      const text = `before ${secret} after`;
      const { value, sites } = redactor.redact({ note: text, list: [text] });
      expect(value).toEqual({
        note: `before ${REDACTED} after`,
        list: [`before ${REDACTED} after`],
      });
      expect(sites).toEqual(['/note', '/list/0']);
      expect(redactor.redactString(text)).toBe(`before ${REDACTED} after`);
    },
  );

  it('replaces every credential in one string and keeps the text between them', () => {
    const text = `a ${SAMPLE_SECRETS.openai} b\n${SAMPLE_SECRETS.pem}\nc ${SAMPLE_SECRETS.aws}.`;
    expect(redactor.redactString(text)).toBe(`a ${REDACTED} b\n${REDACTED}\nc ${REDACTED}.`);
  });

  it('redacts a top-level string, reporting the empty pointer (or the base)', () => {
    expect(redactor.redact(`key ${SAMPLE_SECRETS.slack}`)).toEqual({
      value: `key ${REDACTED}`,
      sites: [''],
    });
    expect(redactor.redact(SAMPLE_SECRETS.github, '/output').sites).toEqual(['/output']);
  });

  it.each([
    'the task list: ask-for-help, sk-8 then more',
    'AKIA is a prefix, AKIAshort',
    'a Bearer of news',
    'eyJ alone',
    '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
    'ghp_short',
    'maskAIzaNotAKeyBecauseItIsGluedOnToAWord0123456789',
  ])('leaves ordinary text alone: %j', (text) => {
    expect(redactor.redactString(text)).toBe(text);
  });
});

describe('Redactor: pointers and copying', () => {
  const redactor = new Redactor();

  it('reports RFC 6901 pointers, escaping "~" as ~0 and "/" as ~1', () => {
    const input = {
      'a/b': `x ${SAMPLE_SECRETS.openai}`,
      'm~n': { 'x/api_key': 'v' },
      '~/': [0, { '': SAMPLE_SECRETS.jwt }],
    };
    const { value, sites } = redactor.redact(input, '/events/4');
    expect(sites).toEqual(['/events/4/a~1b', '/events/4/m~0n/x~1api_key', '/events/4/~0~1/1/']);
    for (const site of sites) {
      expect(resolvePointer(value, site.slice('/events/4'.length))).toMatch(/\[REDACTED\]/);
    }
  });

  it('copies on write: the input is untouched, unchanged subtrees are shared', () => {
    const input = deepFreeze({
      clean: { deep: { list: [1, 2, 3] } },
      dirty: {
        kept: { a: 1 },
        secret: 'p',
        list: ['ok', `x ${SAMPLE_SECRETS.aws}`, { fine: true }],
      },
    });
    const before = JSON.stringify(input);
    const { value } = redactor.redact(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(value).not.toBe(input);
    expect(value.clean).toBe(input.clean);
    expect(value.dirty).not.toBe(input.dirty);
    expect(value.dirty.kept).toBe(input.dirty.kept);
    expect(value.dirty.list).not.toBe(input.dirty.list);
    expect(value.dirty.list[2]).toBe(input.dirty.list[2]);
    expect(value).toEqual({
      clean: input.clean,
      dirty: { kept: { a: 1 }, secret: REDACTED, list: ['ok', `x ${REDACTED}`, { fine: true }] },
    });
  });

  it('returns the input itself when nothing is secret', () => {
    const input = { a: [1, { b: 'text' }], c: null };
    expect(redactor.redact(input).value).toBe(input);
  });

  it('keeps an own __proto__ member as data, never as a prototype', () => {
    const input = JSON.parse(
      `{"__proto__":{"api_key":"k","polluted":1},"note":"${SAMPLE_SECRETS.openai}"}`,
    ) as Record<string, unknown>;
    const { value, sites } = redactor.redact(input);
    expect(sites).toEqual(['/__proto__/api_key', '/note']);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(JSON.stringify(value)).toBe(
      `{"__proto__":{"api_key":"${REDACTED}","polluted":1},"note":"${REDACTED}"}`,
    );
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('keeps an unchanged own __proto__ member when a sibling is redacted', () => {
    const input = JSON.parse('{"__proto__":{"x":1},"password":"p"}') as Record<string, unknown>;
    const { value } = redactor.redact(input);
    expect(JSON.stringify(value)).toBe(`{"__proto__":{"x":1},"password":"${REDACTED}"}`);
    expect((value as { x?: unknown }).x).toBeUndefined();
  });
});

describe('Redactor: options', () => {
  it('allowKeys exempts names from name rules, but their values are still scanned', () => {
    const redactor = new Redactor({ allowKeys: ['page_token', 'Session-ID'] });
    const { value, sites } = redactor.redact({
      page_token: 'cursor-42',
      sessionId: 'abc',
      next: { pageToken: `t ${SAMPLE_SECRETS.openai}` },
      token: 'still secret',
    });
    expect(value).toEqual({
      page_token: 'cursor-42',
      sessionId: 'abc',
      next: { pageToken: `t ${REDACTED}` },
      token: REDACTED,
    });
    expect(sites).toEqual(['/next/pageToken', '/token']);
  });

  it('custom keys are matched like the built-in names (case, separators, endings)', () => {
    const redactor = new Redactor({ keys: ['ssn'] });
    expect(
      redactor.redact({ ssn: '1', customer_SSN: '2', 'partner-ssn': 3, ssn_count: 4 }).value,
    ).toEqual({
      ssn: REDACTED,
      customer_SSN: REDACTED,
      'partner-ssn': REDACTED,
      ssn_count: 4,
    });
    expect(redactor.isSecretName('api_key')).toBe(true);
  });

  it('a custom pattern applies to short strings too (the built-in rules skip them)', () => {
    expect(new Redactor({ patterns: [/^\d{4}$/] }).redact({ pin: 1, code: '1234' }).value).toEqual({
      pin: 1,
      code: '[REDACTED]',
    });
    expect(new Redactor().redact({ code: '1234' }).value).toEqual({ code: '1234' });
  });

  it('custom patterns are replaced inside strings, with their own flags', () => {
    const redactor = new Redactor({ patterns: [/acme-[0-9]{6}/i, /(["'])internal\1/] });
    expect(redactor.redactString('ids ACME-123456 and acme-654321')).toBe(
      `ids ${REDACTED} and ${REDACTED}`,
    );
    expect(redactor.redactString(`say "internal" not 'internal"`)).toBe(
      `say ${REDACTED} not 'internal"`,
    );
    expect(redactor.redactString(`and ${SAMPLE_SECRETS.aws}`)).toBe(`and ${REDACTED}`);
  });

  it('a custom pattern with the global or sticky flag still works on every call', () => {
    const redactor = new Redactor({ patterns: [/zz[0-9]+/gy] });
    for (let i = 0; i < 3; i++)
      expect(redactor.redactString('a zz1 b zz22')).toBe(`a ${REDACTED} b ${REDACTED}`);
  });

  it('enabled: false changes nothing and reports nothing', () => {
    const redactor = new Redactor({ enabled: false });
    const input = { api_key: 'k', note: SAMPLE_SECRETS.openai };
    expect(redactor.redact(input)).toEqual({ value: input, sites: [] });
    expect(redactor.redact(input).value).toBe(input);
    expect(redactor.redactString(SAMPLE_SECRETS.pem)).toBe(SAMPLE_SECRETS.pem);
  });

  it.each([
    ['null options', null],
    ['a string', 'on'],
    ['enabled that is not a boolean', { enabled: 'no' }],
    ['keys that is not an array', { keys: 'ssn' }],
    ['an empty key', { keys: [''] }],
    ['a key that is not a string', { keys: [1] }],
    ['patterns that is not an array', { patterns: /x/ }],
    ['a pattern that is not a RegExp', { patterns: ['sk-'] }],
    ['allowKeys that is not an array', { allowKeys: 'token' }],
    ['an allowed key that is not a string', { allowKeys: [null] }],
  ])('throws a labelled TypeError for %s', (_, options) => {
    expect(() => new Redactor(options as never)).toThrow(TypeError);
    expect(() => new Redactor(options as never)).toThrow(/^redact/);
  });
});

describe('Redactor: property', () => {
  const secrets = Object.values(SAMPLE_SECRETS);
  const text = fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
    fc
      .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...secrets), fc.string({ maxLength: 8 }))
      .map(([before, secret, after]) => `${before} ${secret} ${after}`),
  );
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 8 }) },
    fc.constantFrom(
      '__proto__',
      'api_key',
      'a/b',
      'x~y',
      'max_tokens',
      'has_token',
      'Authorization',
    ),
  );
  const { json } = fc.letrec((tie) => ({
    json: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('json'), { maxLength: 4 }),
      fc.dictionary(key, tie('json'), { maxKeys: 4 }),
    ),
  }));

  it('no known secret remains, the input is untouched, and every change is reported exactly', () => {
    const redactor = new Redactor();
    fc.assert(
      fc.property(json, (input) => {
        const before = JSON.stringify(input);
        const { value, sites } = redactor.redact(input);
        const after = JSON.stringify(value) ?? '';
        expect(JSON.stringify(input)).toBe(before);
        for (const pattern of SECRET_VALUE_PATTERNS) {
          expect(new RegExp(pattern.source).test(after), `${pattern} in ${after}`).toBe(false);
        }
        for (const secret of secrets) {
          expect(after.includes(JSON.stringify(secret).slice(1, -1))).toBe(false);
        }
        expect([...sites].sort()).toEqual(changedPointers(input, value, '').sort());
        for (const site of sites) expect(resolvePointer(value, site)).toMatch(/\[REDACTED\]/);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Redactor: strings in values', () => {
  // Strings inside values skip the rules when a cheap test shows none can match, and repeated
  // long ones are looked up; either way each string must come out as redactString makes it.
  const pieces = [
    ...Object.values(SAMPLE_SECRETS),
    'sk-',
    'AKIA',
    'Bearer ',
    'eyJ',
    'ghp_',
    'xox',
    'AIza',
    '=',
    '"',
    '--',
    '-',
    '{',
    '}',
    '[',
    ']',
    'password',
    'token=abc123',
    '?api_key=v',
    '--token x',
    '"secret": "s3"',
    ' ',
    'é',
    '\n',
    'plain words',
    'a'.repeat(130),
    '{"password":"p","ok":1}',
  ];
  const text = fc
    .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })), { maxLength: 8 })
    .map((parts) => parts.join(''));

  it('are redacted as redactString redacts them, with the built-in rules and custom ones', () => {
    for (const redactor of [
      new Redactor(),
      new Redactor({ keys: ['words'], allowKeys: ['token'] }),
      new Redactor({ patterns: [/plain/] }),
    ]) {
      fc.assert(
        fc.property(fc.array(text, { maxLength: 4 }), (strings) => {
          // Twice: the second pass may be answered from what the first one learnt.
          for (let pass = 0; pass < 2; pass++) {
            const { value } = redactor.redact(strings);
            expect(value).toHaveLength(strings.length);
            strings.forEach((s, i) => {
              const alone = redactor.redactString(s);
              // After a flag-shaped argument (`--password`), the argv rule may also
              // replace the whole argument; anywhere else the list changes nothing.
              const afterFlag = i > 0 && /^--[A-Za-z][\w-]*$/.test(strings[i - 1] as string);
              if (afterFlag && value[i] === REDACTED) return;
              expect(value[i]).toBe(alone);
            });
          }
        }),
        { numRuns: 300 },
      );
    }
  });
});

/** The pointers at which `after` differs from `before`, where a change replaced a value by a string. */
function changedPointers(before: unknown, after: unknown, at: string): string[] {
  if (before === after) return [];
  if (typeof after === 'string' || typeof before !== 'object' || before === null) return [at];
  const out: string[] = [];
  for (const name of Object.keys(before)) {
    const token = name.replace(/~/g, '~0').replace(/\//g, '~1');
    out.push(
      ...changedPointers(
        (before as Record<string, unknown>)[name],
        (after as Record<string, unknown>)[name],
        `${at}/${token}`,
      ),
    );
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
