// The front-end's own behaviour, in-process with a fake CommandIO: colour rules, key files,
// usage errors, standard input, several files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, loadCorpus } from '../../../test-support/corpus.js';
import {
  EXIT,
  loadTrust,
  makeStyle,
  runVerifyCommand,
  stripOneNewline,
  UsageError,
  useColor,
  type CommandIO,
} from '../src/index.js';

function fakeIO(files: Record<string, Uint8Array | string> = {}, tty = false, env = {}) {
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
    isTTY: tty,
    env,
  };
  return { io, out: () => out, err: () => err };
}

const cases = loadCorpus();
const valid = cases.find((c) => c.expected.verdict === 'valid' && c.trust.pinned?.length === 1)!;
// An edited event breaks the chain: invalid whatever keys are given.
const invalid = cases.find((c) => c.file === 'tampered/tool-output-edited.json')!;
const read = (f: string) => readFileSync(join(CORPUS_DIR, f));

describe('useColor', () => {
  it('colours a terminal only, never with NO_COLOR or TERM=dumb; FORCE_COLOR forces it', () => {
    expect(useColor({ isTTY: true, env: {} })).toBe(true);
    expect(useColor({ isTTY: false, env: {} })).toBe(false);
    expect(useColor({ isTTY: true, env: { NO_COLOR: '1' } })).toBe(false);
    expect(useColor({ isTTY: true, env: { NO_COLOR: '' } })).toBe(true);
    expect(useColor({ isTTY: true, env: { TERM: 'dumb' } })).toBe(false);
    expect(useColor({ isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(useColor({ isTTY: false, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(useColor({ isTTY: false, env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).toBe(false);
  });

  it('makeStyle(false) leaves text alone; makeStyle(true) wraps it in SGR escapes', () => {
    expect(makeStyle(false).red('x')).toBe('x');
    expect(makeStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
  });

  it('a report on a TTY is coloured, with NO_COLOR it has no escape at all', async () => {
    const files = { r: read(valid.file), k: read(valid.trust.pinned![0]!) };
    const tty = fakeIO(files, true);
    await runVerifyCommand(['r', '--pubkey', 'k'], tty.io);
    expect(tty.out()).toContain('\u001b[32m');
    const plain = fakeIO(files, true, { NO_COLOR: '1' });
    await runVerifyCommand(['r', '--pubkey', 'k'], plain.io);
    expect(plain.out()).not.toContain('\u001b');
    expect(plain.out()).toMatch(/^VALID {2}r\n/);
  });
});

describe('stripOneNewline', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  it('drops one \\n, \\r\\n or \\r and nothing more', () => {
    expect(text(stripOneNewline(bytes('k\n')))).toBe('k');
    expect(text(stripOneNewline(bytes('k\r\n')))).toBe('k');
    expect(text(stripOneNewline(bytes('k\r')))).toBe('k');
    expect(text(stripOneNewline(bytes('k\n\n')))).toBe('k\n');
    expect(text(stripOneNewline(bytes(' k ')))).toBe(' k ');
    expect(stripOneNewline(bytes(''))).toHaveLength(0);
  });
});

describe('loadTrust', () => {
  it('reads --pubkey, --revoked and --key-file; an unreadable file is a coded UsageError', async () => {
    const keyA = readFileSync(join(CORPUS_DIR, 'keys', 'producer.pub.pem'), 'utf8');
    const keyB = readFileSync(join(CORPUS_DIR, 'keys', 'attacker.pub.pem'), 'utf8');
    const { io } = fakeIO({ a: keyA, b: keyB, s: 'secret\n', bad: 'PEM-A' });
    expect(await loadTrust({ pubkey: ['a'], revoked: ['b'], 'key-file': 's' }, io)).toEqual({
      pinned: [keyA],
      revoked: [keyB],
      hmacKey: new TextEncoder().encode('secret'),
    });
    // A file that is not a public key is named by its flag and path, not an option path.
    for (const flag of ['pubkey', 'revoked'] as const) {
      const bad = loadTrust({ [flag]: ['a', 'bad'] }, io);
      await expect(bad).rejects.toMatchObject({
        code: 'USAGE_BAD_PUBLIC_KEY',
        message: expect.stringMatching(
          new RegExp(`^--${flag} bad: expected one "-----BEGIN PUBLIC KEY-----" PEM block`),
        ) as unknown,
      });
    }
    expect(await loadTrust({ key: 'inline' }, io)).toEqual({ hmacKey: 'inline' });
    expect(await loadTrust({}, io)).toEqual({});
    const failure = loadTrust({ pubkey: ['missing.pem'] }, io);
    await expect(failure).rejects.toBeInstanceOf(UsageError);
    await expect(failure).rejects.toMatchObject({
      code: 'USAGE_UNREADABLE_KEY',
      message: expect.stringContaining('cannot read --pubkey missing.pem'),
    });
  });
});

describe('runVerifyCommand', () => {
  it('usage mistakes exit 64 and name the program', async () => {
    for (const argv of [
      [],
      ['r', '--pubky', 'k'],
      ['r', '--key', 'a', '--key-file', 'b'],
      ['-', '--pubkey', '-'],
    ]) {
      const { io, err } = fakeIO();
      expect(await runVerifyCommand(argv, io, 'runback-verify')).toBe(EXIT.usage);
      expect(err()).toMatch(/^runback-verify: .+\nRun "runback-verify --help" for usage\.\n$/);
    }
  });

  it('a pinned key that is not a public key PEM is a usage error, not a verdict', async () => {
    const { io, out, err } = fakeIO({ r: read(valid.file), k: 'not a key' });
    expect(await runVerifyCommand(['r', '--pubkey', 'k'], io)).toBe(EXIT.usage);
    expect(out()).toBe('');
    expect(err()).toContain('runback verify: ');
  });

  it('--help prints the usage and exits 0', async () => {
    const { io, out } = fakeIO();
    expect(await runVerifyCommand(['--help'], io, 'runback-verify')).toBe(EXIT.ok);
    expect(out()).toMatch(/^Usage: runback-verify FILE\.\.\. \[options\]/);
  });

  it('several files: one JSON line each, the worst status; an unreadable one makes it 64', async () => {
    const files = {
      v: read(valid.file),
      bad: read(invalid.file),
      k: read(valid.trust.pinned![0]!),
    };
    const both = fakeIO(files);
    expect(await runVerifyCommand(['v', 'bad', '--json', '--pubkey', 'k'], both.io)).toBe(
      EXIT.invalid,
    );
    const lines = both
      .out()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { verdict: string });
    expect(lines.map((l) => l.verdict)).toEqual(['valid', 'invalid']);

    const missing = fakeIO(files);
    expect(await runVerifyCommand(['v', 'nope', '--pubkey', 'k'], missing.io)).toBe(EXIT.usage);
    expect(missing.err()).toContain('cannot read nope');
  });

  it('"-" reads standard input and is reported as (stdin)', async () => {
    const { io, out } = fakeIO({ '-': read(invalid.file) });
    expect(await runVerifyCommand(['-'], io)).toBe(EXIT.invalid);
    expect(out()).toMatch(/^INVALID {2}\(stdin\)\n/);
  });
});
