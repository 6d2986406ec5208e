// A record is untrusted input: every string in it may carry terminal control sequences (OSC
// to set the title, CSI to recolour, C1 controls, BEL) or bidi overrides that reorder what a
// reader sees. Each command's human output must show them as visible escapes, never raw.
import { compareRuns } from '@runback/sdk/process';
import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';
import { diffJson } from '@runback/diff';
import { verifyJson } from '@runback/verify';
import { escapeTerminal, makeStyle } from '@runback/verify-cli';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReplayReport } from '../src/replay/format.js';
import { runCli } from '../src/run-cli.js';
import { fakeIO, GENERATED_AT, realisticRun, tempDir } from './support.js';

/** OSC title, CSI colour, C1 CSI, BEL, DEL, a bidi override and an isolate. */
const EVIL = 'x\u001b]0;pwned\u0007\u001b[31mred\u009b2J\u007f\u202egnp.exe\u2066i\u2069';
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every string of a value (keys too) made hostile. */
function poison(value: unknown): unknown {
  if (typeof value === 'string') return value + EVIL;
  if (Array.isArray(value)) return value.map(poison);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        // Keep the fields the record format fixes (types, ids, times, seq) readable by verify.
        [
          'type',
          'phase',
          'span_id',
          'parent_span_id',
          'run_id',
          'started_at',
          'ended_at',
          'ts',
          'ts_start',
          'ts_end',
          'finish_reason',
          'role',
          'status',
          'kind',
          'provider',
          'tool_call_id',
        ].includes(k)
          ? v
          : poison(v),
      ]),
    );
  }
  return value;
}

function hostileRun() {
  const run = realisticRun();
  return {
    run: poison(run.run) as Record<string, unknown>,
    events: run.events.map((e) => poison(e) as Record<string, unknown>),
  };
}

const keys = generateEd25519KeyPair();
const seal = (run: ReturnType<typeof realisticRun>) =>
  sealRecord(run, {
    generatedAt: GENERATED_AT,
    signer: { alg: 'Ed25519', privateKey: keys.privateKey },
  });

function files() {
  const dir = tempDir();
  const plain = join(dir, 'plain.json');
  const hostile = join(dir, `hostile${EVIL}.json`);
  const pub = join(dir, 'key.pub.pem');
  writeFileSync(plain, JSON.stringify(seal(realisticRun())));
  writeFileSync(hostile, JSON.stringify(seal(hostileRun()), null, 2));
  writeFileSync(pub, publicKeyToPem(keys.publicKey));
  return { dir, plain, hostile, pub };
}

function expectNoRawControl(text: string): void {
  expect(text.length).toBeGreaterThan(0);
  expect(RAW.exec(text)?.[0]).toBeUndefined();
}

describe('record-derived text in human output', () => {
  it('escapeTerminal shows C0, C1, DEL and bidi controls as \\u escapes and leaves text alone', () => {
    expect(escapeTerminal('a\u001b[31mb\u0007\u007f\u009b\u202e\u2066é ✓')).toBe(
      'a\\u001b[31mb\\u0007\\u007f\\u009b\\u202e\\u2066é ✓',
    );
    expect(escapeTerminal('plain text, 100%')).toBe('plain text, 100%');
  });

  it('the hostile record is a real, valid record (the test is not feeding verify garbage)', () => {
    const { hostile } = files();
    const result = verifyJson(new TextEncoder().encode(JSON.stringify(seal(hostileRun()))));
    expect(result.integrity).toBe(true);
    expect(hostile).toContain('\u001b');
  });

  it('runback diff of a plain and a hostile record prints no raw control character', async () => {
    const { plain, hostile } = files();
    for (const isTTY of [false, true]) {
      const io = fakeIO({ isTTY });
      expect(await runCli(['diff', plain, hostile], io)).toBe(1);
      // On a TTY our own colour codes are expected; they are removed before the check.
      // eslint-disable-next-line no-control-regex
      const text = isTTY ? io.out().replace(/\u001b\[[0-9;]*m/g, '') : io.out();
      expectNoRawControl(text);
      expect(text).toContain('\\u001b]0;pwned\\u0007');
      expect(text).toContain('\\u202e');
    }
  });

  it('runback inspect of the hostile record prints no raw control character', async () => {
    const { hostile } = files();
    const io = fakeIO();
    expect(await runCli(['inspect', hostile], io)).toBe(0);
    expectNoRawControl(io.out() + io.err());
    expect(io.out()).toContain('\\u001b');
  });

  it('runback verify of the hostile record (valid, and tampered) prints no raw control character', async () => {
    const { dir, hostile, pub } = files();
    const io = fakeIO();
    expect(await runCli(['verify', hostile, '--pubkey', pub], io)).toBe(0);
    expectNoRawControl(io.out() + io.err());
    expect(io.out()).toContain('VALID');

    const tampered = seal(hostileRun()) as unknown as { events: Record<string, unknown>[] };
    tampered.events[2] = { ...tampered.events[2], tool_name: `other${EVIL}` };
    const tamperedPath = join(dir, `tampered${EVIL}.json`);
    writeFileSync(tamperedPath, JSON.stringify(tampered));
    const bad = fakeIO();
    expect(await runCli(['verify', tamperedPath, '--pubkey', pub], bad)).toBe(1);
    expectNoRawControl(bad.out() + bad.err());
    expect(bad.out()).toContain('INVALID');
  });

  it('a usage error quoting a hostile file name prints no raw control character', async () => {
    const io = fakeIO();
    expect(await runCli(['diff', `missing${EVIL}.json`, `other${EVIL}.json`], io)).toBe(64);
    expectNoRawControl(io.err());
  });

  it('runback record of a program that cannot start, named with control characters', async () => {
    const { dir } = files();
    const io = fakeIO();
    await runCli(
      ['record', '--no-preload', '--out', join(dir, 'run.json'), '--', join(dir, `no-such${EVIL}`)],
      io,
    );
    expect(io.err()).toContain('\\u001b]0;pwned');
    expectNoRawControl(io.err());
    expect(RAW.exec(io.out())).toBeNull();
  });

  it("runback replay's report of a diverged hostile replay prints no raw control character", () => {
    const recorded = seal(realisticRun());
    const replayed = seal(hostileRun());
    const verification = verifyJson(new TextEncoder().encode(JSON.stringify(recorded)));
    const report = compareRuns(recorded, replayed, 'strict', verification, undefined);
    expect(report.status).toBe('diverged');
    expect(report.divergence).not.toBeNull();
    const text = formatReplayReport(
      report,
      `rec${EVIL}.json`,
      verification,
      diffJson(report.recorded.output, report.replayed.output),
      `out${EVIL}.json`,
      makeStyle(false),
    );
    expectNoRawControl(text);
    expect(text).toContain('DIVERGED');
    expect(text).toContain('\\u202e');
  });
});
