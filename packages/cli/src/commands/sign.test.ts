import { generateEd25519KeyPair, privateKeyToPem, publicKeyToPem, sealRecord } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeIO, GENERATED_AT, realisticRun, RUN_ID, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

function setup(input: unknown = realisticRun()) {
  const dir = tempDir();
  const keys = generateEd25519KeyPair();
  const keyPath = join(dir, 'signer.key.pem');
  writeFileSync(keyPath, privateKeyToPem(keys.privateKey), { mode: 0o600 });
  const inputPath = join(dir, 'run.json');
  writeFileSync(inputPath, typeof input === 'string' ? input : JSON.stringify(input));
  return { dir, keys, keyPath, inputPath, outPath: join(dir, 'record.json') };
}

describe('runback sign', () => {
  it('seals and signs an unsealed { run, events } with Ed25519; verifyJson pinning the key calls it valid', async () => {
    const { keys, keyPath, inputPath, outPath } = setup();
    const io = fakeIO();
    expect(
      await runCli(
        ['sign', inputPath, '--key', keyPath, '--out', outPath, '--generated-at', GENERATED_AT],
        io,
      ),
    ).toBe(0);
    const text = readFileSync(outPath, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "manifest": {\n    "run_id"'); // 2-space indentation
    const result = verifyJson(text, { pinned: [keys.publicKey] });
    expect(result.verdict).toBe('valid');
    expect(result.checks.signature).toBe('valid');
    const record = JSON.parse(text) as {
      manifest: { generated_at: string; signature: { alg: string } };
    };
    expect(record.manifest.generated_at).toBe(GENERATED_AT);
    expect(record.manifest.signature.alg).toBe('Ed25519');
    // Same bytes as sealing in-process: the CLI adds nothing of its own.
    const expected = sealRecord(realisticRun(), {
      generatedAt: GENERATED_AT,
      signer: { alg: 'Ed25519', privateKey: keys.privateKey },
    });
    expect(text).toBe(JSON.stringify(expected, null, 2) + '\n');
    expect(io.out()).toContain(`Sealed ${RUN_ID} (6 events) → ${outPath}`);
    expect(io.out()).toMatch(/verified\s+valid/);
  });

  it('--json with --out prints what was written', async () => {
    const { keys, keyPath, inputPath, outPath } = setup();
    const io = fakeIO();
    expect(
      await runCli(['sign', inputPath, '--key', keyPath, '--out', outPath, '--json'], io),
    ).toBe(0);
    const report = JSON.parse(io.out()) as Record<string, unknown>;
    const record = JSON.parse(readFileSync(outPath, 'utf8')) as {
      manifest: { content_digest: string; signature: { key_id: string } };
    };
    expect(report).toMatchObject({
      out: outPath,
      run_id: RUN_ID,
      event_count: 6,
      signed: true,
      verdict: 'valid',
      content_digest: record.manifest.content_digest,
      signature: { alg: 'Ed25519', key_id: record.manifest.signature.key_id },
      warnings: [],
    });
    expect(
      verifyJson(readFileSync(outPath), { pinned: [publicKeyToPem(keys.publicKey)] }).verdict,
    ).toBe('valid');
  });

  it('defaults --generated-at to the current time', async () => {
    const { inputPath, outPath } = setup();
    const before = Date.now();
    expect(await runCli(['sign', inputPath, '--out', outPath], fakeIO())).toBe(0);
    const at = (JSON.parse(readFileSync(outPath, 'utf8')) as { manifest: { generated_at: string } })
      .manifest.generated_at;
    expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(at)).toBeLessThanOrEqual(Date.now());
  });

  it('signs with HMAC-SHA256 from --hmac-key and --hmac-key-file; valid with that key', async () => {
    const { dir, inputPath, outPath } = setup();
    expect(
      await runCli(['sign', inputPath, '--hmac-key', 's3cret', '--out', outPath], fakeIO()),
    ).toBe(0);
    const text = readFileSync(outPath, 'utf8');
    expect(verifyJson(text, { hmacKey: 's3cret' }).verdict).toBe('valid');
    expect(verifyJson(text, { hmacKey: 'other' }).verdict).toBe('invalid');
    expect(verifyJson(text).checks.signature).toBe('no-key');

    const keyFile = join(dir, 'hmac.key');
    writeFileSync(keyFile, 's3cret\n');
    const out2 = join(dir, 'record2.json');
    expect(
      await runCli(
        [
          'sign',
          inputPath,
          '--hmac-key-file',
          keyFile,
          '--out',
          out2,
          '--generated-at',
          GENERATED_AT,
        ],
        fakeIO(),
      ),
    ).toBe(0);
    expect(verifyJson(readFileSync(out2), { hmacKey: 's3cret' }).verdict).toBe('valid');
  });

  it('without a key, seals unsigned, says so, and the record verifies as unverified', async () => {
    const { inputPath, outPath } = setup();
    const io = fakeIO();
    expect(await runCli(['sign', inputPath, '--out', outPath], io)).toBe(0);
    const result = verifyJson(readFileSync(outPath));
    expect(result.verdict).toBe('unverified');
    expect(result.integrity).toBe(true);
    expect(result.checks.signature).toBe('unsigned');
    expect(io.out()).toContain('no --key, --hmac-key or --hmac-key-file');
  });

  it('without --out, writes the record to stdout and the report to stderr; reads "-" from stdin', async () => {
    const io = fakeIO({ stdin: JSON.stringify(realisticRun()) });
    expect(await runCli(['sign', '-', '--generated-at', GENERATED_AT], io)).toBe(0);
    expect(io.out()).toBe(
      JSON.stringify(sealRecord(realisticRun(), { generatedAt: GENERATED_AT }), null, 2) + '\n',
    );
    expect(io.err()).toContain('Sealed run_a3f1b90c (6 events) → standard output');
  });

  it('re-seals a tampered full record correctly, and warns that its old seal no longer held', async () => {
    const { keys, keyPath, dir, outPath } = setup();
    const original = sealRecord(realisticRun(), {
      generatedAt: GENERATED_AT,
      signer: { alg: 'Ed25519', privateKey: keys.privateKey },
    });
    const tampered = structuredClone(original) as unknown as { events: Record<string, unknown>[] };
    (tampered.events[2] as Record<string, unknown>)['output'] = { score: 850 };
    expect(verifyJson(JSON.stringify(tampered), { pinned: [keys.publicKey] }).verdict).toBe(
      'invalid',
    );
    const inputPath = join(dir, 'tampered.json');
    writeFileSync(inputPath, JSON.stringify(tampered));

    const io = fakeIO();
    expect(
      await runCli(
        ['sign', inputPath, '--key', keyPath, '--out', outPath, '--generated-at', GENERATED_AT],
        io,
      ),
    ).toBe(0);
    const text = readFileSync(outPath, 'utf8');
    expect(verifyJson(text, { pinned: [keys.publicKey] }).verdict).toBe('valid');
    const resealed = JSON.parse(text) as { events: { output?: unknown }[] };
    expect(resealed.events[2]?.output).toEqual({ score: 850 });
    const { run, events } = tampered as unknown as { run: object; events: object[] };
    expect(text).toBe(
      JSON.stringify(
        sealRecord(
          { run, events },
          { generatedAt: GENERATED_AT, signer: { alg: 'Ed25519', privateKey: keys.privateKey } },
        ),
        null,
        2,
      ) + '\n',
    );
    expect(io.out()).toContain('no longer verifies (chain, digest, cassette)');
  });

  it('refuses a record whose summary contradicts its events: exit 1, errors listed, nothing written', async () => {
    const input = realisticRun();
    input.run['status'] = 'success'; // the run end event says "error"
    const { keyPath, inputPath, outPath, dir } = setup(input);
    const io = fakeIO();
    expect(await runCli(['sign', inputPath, '--key', keyPath, '--out', outPath], io)).toBe(1);
    expect(io.err()).toContain('refusing to write');
    expect(io.err()).toContain('consistent:');
    expect(io.err()).toContain('run.status');
    expect(io.err()).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).sort()).toEqual(['run.json', 'signer.key.pem']);

    const json = fakeIO();
    expect(
      await runCli(['sign', inputPath, '--key', keyPath, '--out', outPath, '--json'], json),
    ).toBe(1);
    const parsed = JSON.parse(json.out()) as {
      error: { code: string; verification: { checks: { consistent: boolean } } };
    };
    expect(parsed.error.code).toBe('SIGN_NOT_VERIFIABLE');
    expect(parsed.error.verification.checks.consistent).toBe(false);
  });

  it.each([
    ['not JSON', '{"run": ', 'cannot read'],
    ['a duplicate member', '{"run": {"run_id": "r"}, "run": {}, "events": []}', 'duplicate'],
    [
      'a non-finite number',
      '{"run": {"run_id": "r", "cost": 1e999}, "events": []}',
      'out of range',
    ],
    ['no run', '{"events": []}', 'expected a "run" member'],
    ['no events', '{"run": {"run_id": "r"}}', 'expected an "events" member'],
    [
      'events not an array',
      '{"run": {"run_id": "r"}, "events": {}}',
      'expected an "events" member',
    ],
    [
      'an event that is not an object',
      '{"run": {"run_id": "r"}, "events": [null]}',
      'expected events[0] to be an event object',
    ],
    ['an array', '[]', 'expected a JSON object'],
    ['a run without run_id', '{"run": {}, "events": []}', 'run.run_id'],
    ['a duplicate seq', '{"run": {"run_id": "r"}, "events": [{"seq": 1}, {"seq": 1}]}', 'seq'],
    [
      'an llm event without a model',
      '{"run": {"run_id": "r"}, "events": [{"seq": 0, "type": "llm"}]}',
      'model_id',
    ],
  ])(
    'rejects input with %s: exit 1, a clear message, no stack trace',
    async (_label, text, message) => {
      const { inputPath, outPath, dir } = setup(text);
      const io = fakeIO();
      expect(await runCli(['sign', inputPath, '--out', outPath], io)).toBe(1);
      expect(io.err()).toContain('runback sign: ');
      expect(io.err()).toContain(message);
      expect(io.err()).not.toMatch(/\n\s+at /);
      expect(io.out()).toBe('');
      expect(readdirSync(dir).sort()).toEqual(['run.json', 'signer.key.pem']);
    },
  );

  it('replaces an existing --out file atomically, keeping its mode and leaving no temp files', async () => {
    const { keyPath, inputPath, outPath, dir } = setup();
    writeFileSync(outPath, 'old contents', { mode: 0o640 });
    expect(await runCli(['sign', inputPath, '--key', keyPath, '--out', outPath], fakeIO())).toBe(0);
    expect(readFileSync(outPath, 'utf8')).not.toContain('old contents');
    expect(verifyJson(readFileSync(outPath)).integrity).toBe(true);
    expect(statSync(outPath).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(['record.json', 'run.json', 'signer.key.pem']);
  });

  it('an --out in a missing directory is an error (exit 1) saying what failed', async () => {
    const { inputPath, dir } = setup();
    const io = fakeIO();
    const out = join(dir, 'missing', 'record.json');
    expect(await runCli(['sign', inputPath, '--out', out], io)).toBe(1);
    expect(io.err()).toContain(`cannot write ${out}: ENOENT`);
    expect(readdirSync(dir).sort()).toEqual(['run.json', 'signer.key.pem']);
  });

  it('signs a record in place (INPUT and --out the same file)', async () => {
    const { keyPath, inputPath, keys } = setup();
    expect(await runCli(['sign', inputPath, '--key', keyPath, '--out', inputPath], fakeIO())).toBe(
      0,
    );
    expect(verifyJson(readFileSync(inputPath), { pinned: [keys.publicKey] }).verdict).toBe('valid');
  });

  it.each([
    [['--key', 'K', '--hmac-key', 'x'], 'expected one of --key, --hmac-key or --hmac-key-file'],
    [['--hmac-key', ''], 'non-empty secret'],
    [['--generated-at', '2026-06-14'], 'expected --generated-at to be an ISO 8601 UTC time'],
    [['--generated-at', '2026-02-30T00:00:00.000Z'], 'expected --generated-at'],
    [['--key', '/nonexistent/key.pem'], 'cannot read --key /nonexistent/key.pem'],
  ])('usage errors exit 64: %j', async (flags, message) => {
    const { inputPath } = setup();
    const io = fakeIO();
    expect(
      await runCli(['sign', inputPath, ...flags.map((f) => (f === 'K' ? inputPath : f))], io),
    ).toBe(64);
    expect(io.err()).toContain(message);
  });

  it('a public key or a non-key file given as --key is a usage error saying what to pass', async () => {
    const { dir, inputPath, keys } = setup();
    const pub = join(dir, 'signer.pub.pem');
    writeFileSync(pub, publicKeyToPem(keys.publicKey));
    const io = fakeIO();
    expect(await runCli(['sign', inputPath, '--key', pub], io)).toBe(64);
    expect(io.err()).toContain('is a public key; signing needs the private key');
    const io2 = fakeIO();
    expect(await runCli(['sign', inputPath, '--key', inputPath], io2)).toBe(64);
    expect(io2.err()).toContain('is not an unencrypted Ed25519 private key in PKCS#8 PEM');
  });

  it('an unreadable INPUT is a usage error (as in runback verify)', async () => {
    const io = fakeIO();
    expect(await runCli(['sign', join(tempDir(), 'missing.json')], io)).toBe(64);
    expect(io.err()).toContain('cannot read');
  });
});
