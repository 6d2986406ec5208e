// Every command meets a flag mistake the same way: our own message naming the flag (with a
// suggestion for a near miss), exit 64, and with --json an {"error": {code, message}} line on
// the command's JSON stream (stdout; stderr for record and replay, whose stdout is the
// program's), never Node's raw parseArgs text.
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';
import { fakeIO } from './support.js';

const COMMANDS = [
  'verify',
  'sign',
  'record',
  'replay',
  'recover',
  'diff',
  'inspect',
  'keygen',
  'anchor',
  'bundle',
  'report',
  'export',
  'import',
];

/** Where a command's --json output goes: record and replay leave stdout to the program. */
const jsonStream = (name: string) => (name === 'record' || name === 'replay' ? 'err' : 'out');

/** The commands that take an HMAC secret as --key. */
const KEY_COMMANDS = ['verify', 'inspect', 'report', 'export'];
const PEM_TEXT =
  '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA6kpsY+KcUgq+9VB7Ey7F+ZVHdq6+vnuSQh7qaRRG0iw=\n-----END PUBLIC KEY-----\n';

describe('flag mistakes on every command', () => {
  it.each(KEY_COMMANDS)(
    'runback %s --key "$(cat pub.pem)": USAGE_KEY_IS_PEM pointing to --pubkey, exit 64',
    async (name) => {
      const io = fakeIO();
      expect(await runCli([name, 'x.json', '--json', '--key', PEM_TEXT], io)).toBe(64);
      const line = io[jsonStream(name)]().trimEnd().split('\n').at(-1) ?? '';
      const body = JSON.parse(line) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('USAGE_KEY_IS_PEM');
      expect(body.error.message).toContain('got PEM key text');
      expect(body.error.message).toContain('--pubkey PEM_FILE');
    },
  );

  it('runback verify BUNDLE --key "$(cat pub.pem)" and runback sign --key PEM-text: each its own message', async () => {
    const bundle = fakeIO();
    expect(await runCli(['verify', 'x.tar.gz', '--json', '--key', PEM_TEXT], bundle)).toBe(64);
    expect(bundle.out()).toContain('USAGE_KEY_IS_PEM');
    // sign's --key names a signing key file: PEM text there is not an HMAC mistake.
    const sign = fakeIO();
    expect(await runCli(['sign', 'x.json', '--json', '--key', PEM_TEXT], sign)).toBe(64);
    expect(sign.out()).toContain('USAGE_BAD_ARGUMENTS');
    expect(sign.out()).not.toContain('HMAC secret');
  });

  it.each(COMMANDS)('runback %s --jsno: unknown option named, exit 64', async (name) => {
    const io = fakeIO();
    expect(await runCli([name, 'x.json', '--jsno'], io)).toBe(64);
    expect(io.err()).toContain('unknown option --jsno; did you mean --json?');
    expect(io.err()).not.toMatch(
      /To specify a positional argument|ERR_PARSE_ARGS|Unknown option '/,
    );
  });

  it.each(COMMANDS)(
    'runback %s --json --bogus-flag: {"error": {code, message}} on its JSON stream',
    async (name) => {
      const io = fakeIO();
      expect(await runCli([name, 'x.json', '--json', '--bogus-flag'], io)).toBe(64);
      const stream = jsonStream(name);
      const lines = io[stream]().trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      const body = JSON.parse(lines[0]!) as { error: { code: string; message: string } };
      expect(body.error.code).toMatch(/^[A-Z][A-Z_]+$/);
      expect(body.error.message).toBe('unknown option --bogus-flag');
      // Nothing else on that stream; the other one carries no JSON.
      if (stream === 'err') expect(io.out()).toBe('');
    },
  );

  it.each([...COMMANDS.filter((c) => c !== 'keygen'), 'log'])(
    'runback %s --json with a missing argument: the error shape on its JSON stream',
    async (name) => {
      const io = fakeIO();
      expect(await runCli([name, '--json'], io)).toBe(64);
      const line = io[jsonStream(name)]().trimEnd().split('\n').at(-1) ?? '';
      const body = JSON.parse(line) as { error: { code: string; message: string } };
      expect(body.error.code).toMatch(/^USAGE_[A-Z_]+$/);
      expect(body.error.message).toMatch(/^expected /);
    },
  );

  it('runback verify --pubky suggests --pubkey', async () => {
    const io = fakeIO();
    expect(await runCli(['verify', 'x.json', '--pubky', 'k.pem'], io)).toBe(64);
    expect(io.err()).toContain('unknown option --pubky; did you mean --pubkey?');
  });

  it('a flag that wants a value and gets none is named', async () => {
    const io = fakeIO();
    expect(await runCli(['sign', 'x.json', '--key'], io)).toBe(64);
    expect(io.err()).toContain('expected a value after --key, got none');
  });

  it('an unknown command and a top-level unknown option with --json print the error shape', async () => {
    const a = fakeIO();
    expect(await runCli(['verfy', '--json'], a)).toBe(64);
    expect(JSON.parse(a.out())).toMatchObject({ error: { code: 'USAGE_UNKNOWN_COMMAND' } });
    expect(a.err()).toContain('did you mean "verify"?');
    const b = fakeIO();
    expect(await runCli(['--jsno', '--json'], b)).toBe(64);
    expect(JSON.parse(b.out())).toMatchObject({ error: { code: 'USAGE_UNKNOWN_OPTION' } });
  });
});
