// One positive and one near-miss negative per redaction rule (rules.ts). The table must name
// every rule, so a rule added without cases fails here.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './index.js';
import { RULE_IDS } from './rules.js';

const R = REDACTED;
const AWS_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const PEM_BODY = 'MC4CAQAwBQYDK2VwBCIEIJ+DYvh6SEqVTm50DFtMDoQikTmiCqirVv9mWG9qfSnF';

interface Case {
  readonly input: unknown;
  readonly output: unknown;
}
const CASES: Record<string, { readonly positive: Case; readonly negative: Case }> = {
  'secret-member-name': {
    positive: { input: { client_secret: 'abc', n: 1 }, output: { client_secret: R, n: 1 } },
    negative: { input: { max_tokens: 512, password_hint: 'blue' }, output: 'same' },
  },
  'openai-anthropic-key': {
    positive: { input: 'key sk-proj-Ab12Cd34Ef56Gh78Ij90', output: `key ${R}` },
    negative: { input: 'task-sk-short and sk-1234', output: 'same' },
  },
  'aws-access-key-id': {
    positive: { input: `id ${AWS_ID} used`, output: `id ${R} used` },
    negative: { input: 'AKIA1234 is too short; XAKIAIOSFODNN7EXAMPLEX is not one', output: 'same' },
  },
  'bearer-credential': {
    positive: { input: 'Authorization: Bearer abcdEFGH1234.ijkl', output: `Authorization: ${R}` },
    negative: { input: 'the Bearer of bad news', output: 'same' },
  },
  jwt: {
    positive: {
      input: 'tok eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
      output: `tok ${R}`,
    },
    negative: { input: 'eyJustKidding.notAToken', output: 'same' },
  },
  'pem-private-key': {
    positive: {
      input: `k:\n-----BEGIN PRIVATE KEY-----\n${PEM_BODY}\n-----END PRIVATE KEY-----\nok`,
      output: `k:\n${R}\nok`,
    },
    negative: {
      input: `-----BEGIN PUBLIC KEY-----\n${PEM_BODY}\n-----END PUBLIC KEY-----`,
      output: 'same',
    },
  },
  'github-token': {
    positive: { input: `t=x ghp_${'aB3'.repeat(12)}`, output: `t=x ${R}` },
    negative: { input: 'ghp_short and ghx_aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3', output: 'same' },
  },
  'github-pat': {
    positive: { input: `github_pat_${'11ABCDEFG0'.repeat(4)}`, output: R },
    negative: { input: 'github_pat_short', output: 'same' },
  },
  'slack-token': {
    positive: { input: 'xoxb-1234567890-abcdef', output: R },
    negative: { input: 'xoxo-1234567890-abcdef', output: 'same' },
  },
  'google-api-key': {
    positive: { input: `AIza${'Sy0_-x'.repeat(5)}12345`, output: R },
    negative: { input: `AIza${'Sy0_-x'.repeat(4)}`, output: 'same' },
  },
  'aws-secret-access-key': {
    positive: { input: `creds ${AWS_ID} ${AWS_SECRET}`, output: `creds ${R} ${R}` },
    // 40 base64 characters with no key id in reach, and a 40-hex git revision beside one.
    negative: {
      input: `blob ${AWS_SECRET}; id AKIAIOSFODNN7EXAMPL rev ${'0123456789abcdef0123'.repeat(2)}`,
      output: 'same',
    },
  },
  'secret-assignment': {
    positive: {
      input: 'user=ann&password=hunter2&token=abc\naws_secret_access_key = wJalr/K7',
      output: `user=ann&password=${R}&token=${R}\naws_secret_access_key = ${R}`,
    },
    negative: { input: 'max_tokens=512&password_hint=blue&tokens=9', output: 'same' },
  },
  'quoted-secret-member': {
    positive: {
      input: 'log {"user":"ann","client_secret": "s3cr3t","password":1234',
      output: `log {"user":"ann","client_secret": "${R}","password":"${R}"`,
    },
    negative: { input: 'log {"user":"password","has_password":true,"token":null', output: 'same' },
  },
  'secret-flag-in-text': {
    positive: {
      input: 'ran mysql --password hunter2 --token=abc -h db',
      output: `ran mysql --password ${R} --token=${R} -h db`,
    },
    negative: { input: 'ran tool --no-password --max-tokens 5 --password-file /p', output: 'same' },
  },
  'secret-query-parameter': {
    positive: {
      input: 'https://x.test/cb?code=abc&sig=def&page=2',
      output: `https://x.test/cb?code=${R}&sig=${R}&page=2`,
    },
    negative: { input: 'https://x.test/?codec=h264&signed=1', output: 'same' },
  },
  'json-text-member': {
    // Pretty-printed, a nested secret, an object-valued secret: only the values change.
    positive: {
      input:
        '{\n  "user": "ann",\n  "auth": {"password": "hunter2"},\n  "client_secret": {"v": [1]}\n}',
      output: `{\n  "user": "ann",\n  "auth": {"password": "${R}"},\n  "client_secret": "${R}"\n}`,
    },
    negative: {
      input: '{"password_policy": "12 chars", "tokens": 3, "secret": false}',
      output: 'same',
    },
  },
  'argv-secret-flag': {
    positive: {
      input: ['psql', '--password', 'hunter2', '--token', 'abc', '-d', 'db'],
      output: ['psql', '--password', R, '--token', R, '-d', 'db'],
    },
    negative: {
      input: ['tool', '--no-password', 'file.txt', '--password-file', '/p', '--max-tokens', '5'],
      output: 'same',
    },
  },
};

describe('redaction rules', () => {
  const redactor = new Redactor();

  it('every rule has a positive and a near-miss negative case', () => {
    expect(Object.keys(CASES).sort()).toEqual([...RULE_IDS].sort());
  });

  for (const [id, { positive, negative }] of Object.entries(CASES)) {
    it(`${id}: redacts the positive case`, () => {
      const { value, sites } = redactor.redact(positive.input);
      expect(value).toEqual(positive.output);
      expect(sites.length).toBeGreaterThan(0);
    });

    it(`${id}: leaves the near miss alone`, () => {
      const { value, sites } = redactor.redact(negative.input);
      expect(value).toEqual(negative.input);
      expect(sites).toEqual([]);
    });
  }

  it('named values follow custom keys and allowKeys like member names', () => {
    const custom = new Redactor({ keys: ['pin'], allowKeys: ['token'] });
    expect(custom.redactString('pin=1234 token=abc')).toBe(`pin=${R} token=abc`);
    expect(custom.redact(['app', '--pin', '1234']).value).toEqual(['app', '--pin', R]);
  });

  it('a PEM private key cut short (text kept to a limit) is redacted to the end', () => {
    expect(redactor.redactString(`out\n-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE`)).toBe(
      `out\n${R}`,
    );
  });

  it('a JSON document stays valid JSON with the same members', () => {
    const body = JSON.stringify({ grant_type: 'client_credentials', client_secret: 'x', n: [1] });
    const out = redactor.redactString(body);
    expect(JSON.parse(out)).toEqual({ grant_type: 'client_credentials', client_secret: R, n: [1] });
  });
});

describe('redaction of text, properties', () => {
  const redactor = new Redactor();
  const name = fc.constantFrom(
    'password',
    'client_secret',
    'api_key',
    'user',
    'max_tokens',
    'id',
    'a b',
  );
  const leaf = fc.oneof(
    fc.stringMatching(/^[a-z0-9 ]{0,8}$/),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 3 }),
    object: fc.dictionary(name, tie('value'), { maxKeys: 4 }),
  }));

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        expect(typeof redactor.redactString(text)).toBe('string');
      }),
      { numRuns: 500 },
    );
  });

  it('a JSON document as text is redacted as its value would be, in any layout', () => {
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 4 }), fc.boolean(), (doc, pretty) => {
        const text = JSON.stringify(doc, null, pretty ? 2 : undefined);
        expect(JSON.parse(redactor.redactString(text))).toEqual(
          JSON.parse(JSON.stringify(redactor.redact(doc).value)),
        );
      }),
      { numRuns: 500 },
    );
  });
});
