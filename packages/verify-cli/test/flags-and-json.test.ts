// The command line as users meet it: our own words for flag mistakes (the flag named, a
// suggestion for a near miss), --version, one --json line per FILE in order with its name,
// JSON errors for usage mistakes, and a PEM key given to --key refused with advice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus } from '../../../test-support/corpus.js';
import { EXIT, parseFlags, runVerifyCommand, type CommandIO } from '../src/index.js';

function fakeIO(files: Record<string, Uint8Array | string> = {}) {
  let out = '';
  let err = '';
  const io: CommandIO = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    readInput: async (path) => {
      const f = files[path];
      if (f === undefined) throw new Error(`ENOENT: no such file, open '${path}'`);
      return typeof f === 'string' ? new TextEncoder().encode(f) : f;
    },
    isTTY: false,
    env: {},
  };
  return { io, out: () => out, err: () => err };
}

const cases = loadCorpus();
const valid = cases.find((c) => c.expected.verdict === 'valid' && c.trust.pinned?.length === 1)!;
const invalid = cases.find((c) => c.file === 'tampered/tool-output-edited.json')!;
const read = (f: string) => readFileSync(join(CORPUS_DIR, f));
const PEM = read(valid.trust.pinned![0]!).toString('utf8');

describe('flag mistakes', () => {
  it('an unknown flag is named with a suggestion, exit 64, no parseArgs wording', async () => {
    const t = fakeIO({ 'a.json': read(valid.file) });
    expect(await runVerifyCommand(['a.json', '--pubky', 'k.pem'], t.io)).toBe(EXIT.usage);
    expect(t.err()).toContain('unknown option --pubky; did you mean --pubkey?');
    expect(t.err()).not.toMatch(/To specify a positional argument|ERR_PARSE_ARGS/);
    expect(t.out()).toBe('');
  });

  it('a missing value and a value given to a switch name the flag', async () => {
    const missing = fakeIO();
    expect(await runVerifyCommand(['a.json', '--pubkey'], missing.io)).toBe(EXIT.usage);
    expect(missing.err()).toContain('expected a value after --pubkey, got none');
    const switched = fakeIO();
    expect(await runVerifyCommand(['a.json', '--json=yes'], switched.io)).toBe(EXIT.usage);
    expect(switched.err()).toContain('--json takes no value, got "--json=yes"');
  });

  it('parseFlags: an unknown short flag, an unrelated name without a guess, extra positionals', () => {
    const options = { pubkey: { type: 'string' }, json: { type: 'boolean' } } as const;
    expect(() => parseFlags({ args: ['-x'], options, strict: true })).toThrow(
      /^unknown option -x$/,
    );
    expect(() => parseFlags({ args: ['--zzzzzz'], options, strict: true })).toThrow(
      /^unknown option --zzzzzz$/,
    );
    expect(() => parseFlags({ args: ['--jsno'], options, strict: true })).toThrow(
      'unknown option --jsno; did you mean --json?',
    );
    expect(() => parseFlags({ args: ['extra'], options, strict: true })).toThrow(
      'unexpected argument "extra"',
    );
    expect(parseFlags({ args: ['--pubkey', 'k', '--json'], options, strict: true }).values).toEqual(
      {
        pubkey: 'k',
        json: true,
      },
    );
  });

  it('--version and -v print the package version', async () => {
    const { version } = JSON.parse(
      readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    for (const flag of ['--version', '-v']) {
      const t = fakeIO();
      expect(await runVerifyCommand([flag], t.io)).toBe(EXIT.ok);
      expect(t.out()).toBe(`${version}\n`);
    }
  });
});

describe('verify --json', () => {
  it('one line per FILE, in order, each with its file; an unreadable one gets its error', async () => {
    const t = fakeIO({ 'good.json': read(valid.file), 'bad.json': read(invalid.file) });
    const status = await runVerifyCommand(
      ['good.json', 'missing.json', 'bad.json', '--json'],
      t.io,
    );
    expect(status).toBe(EXIT.usage);
    const lines = t
      .out()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l['file'])).toEqual(['good.json', 'missing.json', 'bad.json']);
    expect(lines[0]).toMatchObject({ verdict: 'unverified' });
    expect(lines[1]).toEqual({
      file: 'missing.json',
      error: {
        code: 'USAGE_UNREADABLE_INPUT',
        message: "cannot read missing.json: ENOENT: no such file, open 'missing.json'",
      },
    });
    expect(lines[2]).toMatchObject({ verdict: 'invalid' });
  });

  it('a usage error prints {"error": {code, message}} on stdout', async () => {
    const unknown = fakeIO();
    expect(await runVerifyCommand(['a.json', '--json', '--pubky', 'k'], unknown.io)).toBe(64);
    expect(JSON.parse(unknown.out())).toEqual({
      error: {
        code: 'USAGE_BAD_ARGUMENTS',
        message: 'unknown option --pubky; did you mean --pubkey?',
        exit_code: 64,
      },
    });
    const none = fakeIO();
    expect(await runVerifyCommand(['--json'], none.io)).toBe(64);
    expect(JSON.parse(none.out())).toMatchObject({ error: { code: 'USAGE_BAD_ARGUMENTS' } });
    const key = fakeIO({ 'a.json': read(valid.file) });
    expect(await runVerifyCommand(['a.json', '--json', '--pubkey', 'nope.pem'], key.io)).toBe(64);
    expect(JSON.parse(key.out())).toMatchObject({ error: { code: 'USAGE_UNREADABLE_KEY' } });
  });
});

describe('--key given a PEM key', () => {
  it('the name of a PEM file: a usage error pointing to --pubkey, not UNVERIFIED', async () => {
    const t = fakeIO({ 'a.json': read(valid.file), 'signer.pub.pem': PEM });
    expect(await runVerifyCommand(['a.json', '--key', 'signer.pub.pem'], t.io)).toBe(EXIT.usage);
    expect(t.err()).toContain('the name of a PEM key file');
    expect(t.err()).toContain('--pubkey PEM_FILE');
    expect(t.out()).toBe('');
  });

  it('PEM text itself: the same usage error', async () => {
    for (const args of [['--key', PEM], [`--key=${PEM}`]]) {
      const t = fakeIO({ 'a.json': read(valid.file) });
      expect(await runVerifyCommand(['a.json', '--json', ...args], t.io)).toBe(EXIT.usage);
      expect(JSON.parse(t.out())).toMatchObject({ error: { code: 'USAGE_KEY_IS_PEM' } });
      expect(t.err()).toContain('--pubkey PEM_FILE');
    }
  });

  it('an ordinary secret, and a secret that names a non-PEM file, are used as the secret', async () => {
    const t = fakeIO({ 'a.json': read(valid.file), 'notes.txt': 'hello' });
    expect(await runVerifyCommand(['a.json', '--key', 'notes.txt', '--json'], t.io)).not.toBe(64);
    expect(JSON.parse(t.out())).toHaveProperty('verdict');
  });

  it('--hmac-key-file reads the secret; with --key-file too it is a usage error', async () => {
    const hmac = cases.find(
      (c) => c.trust.hmac_key !== undefined && c.expected.verdict === 'valid',
    );
    expect(hmac).toBeDefined();
    const secret = hmac!.trust.hmac_key!;
    const t = fakeIO({ 'h.json': read(hmac!.file), 'secret.txt': `${secret}\n` });
    expect(await runVerifyCommand(['h.json', '--hmac-key-file', 'secret.txt'], t.io)).toBe(0);
    expect(t.out()).toContain('VALID');
    const both = fakeIO({ 'secret.txt': 's' });
    expect(
      await runVerifyCommand(
        ['h.json', '--hmac-key-file', 'secret.txt', '--key-file', 'secret.txt'],
        both.io,
      ),
    ).toBe(64);
  });
});
