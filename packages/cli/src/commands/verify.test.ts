import { generateEd25519KeyPair, publicKeyToPem, sealRecord } from '@runback/sign';
import { readFileSync, writeFileSync } from 'node:fs';
import { verifyJson } from '@runback/verify';
import { nodeIO } from '@runback/verify-cli';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeIO, GENERATED_AT, realisticRun, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

describe('runback verify (delegated to @runback/verify-cli)', () => {
  const keys = generateEd25519KeyPair();
  const record = sealRecord(realisticRun(), {
    generatedAt: GENERATED_AT,
    signer: { alg: 'Ed25519', privateKey: keys.privateKey },
  });

  function files() {
    const dir = tempDir();
    const recordPath = join(dir, 'record.json');
    const pubPath = join(dir, 'key.pub.pem');
    writeFileSync(recordPath, JSON.stringify(record));
    writeFileSync(pubPath, publicKeyToPem(keys.publicKey));
    return { dir, recordPath, pubPath };
  }

  it('valid with the key pinned: exit 0, the report names the program "runback verify"', async () => {
    const { recordPath, pubPath } = files();
    const io = fakeIO();
    expect(await runCli(['verify', recordPath, '--pubkey', pubPath], io)).toBe(0);
    expect(io.out()).toContain('VALID');
  });

  it('unpinned: exit 2; tampered: exit 1; --json prints the result object', async () => {
    const { dir, recordPath } = files();
    const io = fakeIO();
    expect(await runCli(['verify', recordPath, '--json'], io)).toBe(2);
    expect(JSON.parse(io.out())).toMatchObject({
      verdict: 'unverified',
      checks: { signature: 'valid-unpinned' },
    });

    const tampered = structuredClone(record) as unknown as { events: { output?: unknown }[] };
    (tampered.events[2] as { output: unknown }).output = { score: 850 };
    const tamperedPath = join(dir, 'tampered.json');
    writeFileSync(tamperedPath, JSON.stringify(tampered));
    const io2 = fakeIO();
    expect(await runCli(['verify', tamperedPath], io2)).toBe(1);
    expect(io2.out()).toContain('INVALID');
  });

  it('streams a FILE through the process I/O: the same line as verifyJson; --max-bytes caps it', async () => {
    const { recordPath, pubPath } = files();
    let out = '';
    let err = '';
    const io = {
      ...nodeIO(),
      stdout: (t: string) => void (out += t),
      stderr: (t: string) => void (err += t),
    };
    expect(await runCli(['verify', recordPath, '--json', '--pubkey', pubPath], io)).toBe(0);
    const pinned = { pinned: [readFileSync(pubPath, 'utf8')] };
    expect(out).toBe(
      JSON.stringify({ file: recordPath, ...verifyJson(readFileSync(recordPath), pinned) }) + '\n',
    );
    out = '';
    expect(await runCli(['verify', recordPath, '--json', '--max-bytes', '100'], io)).toBe(64);
    expect(JSON.parse(out)).toMatchObject({ file: recordPath, error: { code: 'INPUT_TOO_LARGE' } });
    expect(err).toContain('expected a file of at most 100 bytes (--max-bytes), got more');
  });

  it('usage errors come back as 64 with "runback verify" in the message', async () => {
    const io = fakeIO();
    expect(await runCli(['verify'], io)).toBe(64);
    expect(io.err()).toContain('runback verify: expected at least one FILE');
  });
});
