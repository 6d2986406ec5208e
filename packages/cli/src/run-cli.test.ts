import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fakeIO } from '../test/support.js';
import { runCli } from './run-cli.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('runCli: help, version, dispatch', () => {
  it('prints the version from package.json', async () => {
    for (const flag of ['--version', '-v']) {
      const io = fakeIO();
      expect(await runCli([flag], io)).toBe(0);
      expect(io.out()).toBe(`${pkg.version}\n`);
      expect(io.err()).toBe('');
    }
  });

  it('prints help listing every command and the exit codes', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const io = fakeIO();
      expect(await runCli(argv, io)).toBe(0);
      const text = io.out();
      for (const command of ['verify', 'sign', 'inspect', 'keygen'])
        expect(text).toContain(`  ${command} `);
      for (const code of ['0 ', '1 ', '2 ', '64', '70'])
        expect(text).toMatch(new RegExp(`^  ${code}`, 'm'));
      expect(text).toContain('--json');
    }
  });

  it('with no command, prints help on stderr and exits 64', async () => {
    const io = fakeIO();
    expect(await runCli([], io)).toBe(64);
    expect(io.err()).toContain('Usage: runback <command>');
    expect(io.out()).toBe('');
  });

  it.each(['verify', 'sign', 'inspect', 'keygen'])(
    '"help %s" and "%s --help" print the same usage',
    async (name) => {
      const a = fakeIO();
      const b = fakeIO();
      expect(await runCli(['help', name], a)).toBe(0);
      expect(await runCli([name, '--help'], b)).toBe(0);
      expect(a.out()).toBe(b.out());
      expect(a.out()).toContain(`Usage: runback ${name}`);
      expect(a.out()).toMatch(/Exit status:/);
    },
  );

  it('an unknown command exits 64, says what exists and suggests the nearest', async () => {
    const io = fakeIO();
    expect(await runCli(['sgin'], io)).toBe(64);
    expect(io.err()).toContain('unknown command "sgin"; did you mean "sign"?');
    expect(io.err()).toContain(
      'Commands: verify, sign, record, replay, recover, diff, inspect, keygen, anchor, bundle, report, log, export, import.',
    );
    expect(io.out()).toBe('');
  });

  it('does not treat inherited object members as commands', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      const io = fakeIO();
      expect(await runCli([name], io)).toBe(64);
      expect(io.err()).toContain('unknown command');
    }
  });

  it('"help <unknown>" and an unknown top-level flag exit 64', async () => {
    const a = fakeIO();
    expect(await runCli(['help', 'nope'], a)).toBe(64);
    expect(a.err()).toContain('unknown command "nope"');
    const b = fakeIO();
    expect(await runCli(['--json'], b)).toBe(64);
    expect(b.err()).toContain('unknown option --json; expected a command first');
  });

  it.each([
    ['verify', ['--nope', 'x.json']],
    ['sign', ['--nope', 'x.json']],
    ['sign', ['x.json', '--out']],
    ['inspect', ['--nope', 'x.json']],
    ['inspect', []],
    ['keygen', ['--nope']],
    ['keygen', ['extra']],
  ])('bad flags for %s exit 64 with a pointer to --help', async (name, args) => {
    const io = fakeIO();
    expect(await runCli([name, ...args], io)).toBe(64);
    expect(io.err()).toContain(`runback ${name}:`);
    expect(io.err()).toContain(`--help`);
    expect(io.err()).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('with --json, a failure is also reported as a JSON object on stdout', async () => {
    const io = fakeIO({ stdin: '[1,' });
    expect(await runCli(['inspect', '-', '--json'], io)).toBe(1);
    const parsed = JSON.parse(io.out()) as {
      error: { code: string; exit_code: number; message: string };
    };
    expect(parsed.error.code).toBe('INSPECT_NOT_JSON');
    expect(parsed.error.exit_code).toBe(1);
    expect(io.err()).toContain('cannot read (stdin) as JSON');
  });

  it('maps an unexpected exception to exit 70 without a stack trace unless RUNBACK_DEBUG is set', async () => {
    const failing = (env: Record<string, string>) => ({
      ...fakeIO({ env }),
      readInput: async (): Promise<Uint8Array> => {
        throw new Error('unused');
      },
    });
    // A CommandIO whose stdout throws: the failure comes from outside the command's own checks.
    const boom = (env: Record<string, string>) => {
      let err = '';
      const io = {
        ...failing(env),
        stdout: () => {
          throw new RangeError('disk on fire');
        },
        stderr: (text: string) => void (err += text),
      };
      return { io, err: () => err };
    };
    const plain = boom({});
    expect(await runCli(['keygen', '--help'], plain.io)).toBe(70);
    expect(plain.err()).toContain('runback keygen: unexpected error: disk on fire');
    expect(plain.err()).toContain('This is a bug in runback');
    expect(plain.err()).not.toMatch(/\n\s+at /);
    const debug = boom({ RUNBACK_DEBUG: '1' });
    expect(await runCli(['keygen', '--help'], debug.io)).toBe(70);
    expect(debug.err()).toMatch(/\n\s+at /);
  });
});
