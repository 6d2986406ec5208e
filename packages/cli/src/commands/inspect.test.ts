import { generateEd25519KeyPair, keyId, publicKeyToPem, sealRecord } from '@runback/sign';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeIO, GENERATED_AT, realisticRun, RUN_ID, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

const keys = generateEd25519KeyPair();
const signed = sealRecord(realisticRun(), {
  generatedAt: GENERATED_AT,
  signer: { alg: 'Ed25519', privateKey: keys.privateKey },
});

function write(record: unknown): string {
  const path = join(tempDir(), 'record.json');
  writeFileSync(path, typeof record === 'string' ? record : JSON.stringify(record, null, 2));
  return path;
}

describe('runback inspect', () => {
  it('--json: run facts, counts by type, tokens per model, tools, env, errors and chain status', async () => {
    const path = write(signed);
    const io = fakeIO();
    expect(await runCli(['inspect', path, '--json'], io)).toBe(0);
    const s = JSON.parse(io.out()) as Record<string, unknown>;
    expect(s).toMatchObject({
      file: path,
      schema: 'runback.audit/v2',
      run: {
        name: 'loan-approval-agent',
        run_id: RUN_ID,
        status: 'error',
        started_at: '2026-06-14T02:47:11.000Z',
        ended_at: '2026-06-14T02:47:13.950Z',
        duration_ms: 2950,
      },
      generated_at: GENERATED_AT,
      event_count: 6,
      events_by_type: { run: 2, tool: 2, env: 1, llm: 1 },
      llm: {
        calls: 1,
        input_tokens: 428,
        output_tokens: 184,
        total_tokens: 612,
        models: [
          {
            model: 'openai/gpt-4o',
            calls: 1,
            errors: 0,
            input_tokens: 428,
            output_tokens: 184,
            total_tokens: 612,
          },
        ],
      },
      tools: [
        { name: 'bank_statements', calls: 1, errors: 1 },
        { name: 'credit_score', calls: 1, errors: 0 },
      ],
      env: { now: 1 },
      errors: [
        {
          event_index: 4,
          seq: 4,
          type: 'tool',
          subject: 'bank_statements',
          name: 'TimeoutError',
          message: 'upstream timed out after 1200 ms',
        },
        {
          event_index: 5,
          seq: 5,
          type: 'run',
          subject: 'loan-approval-agent',
          name: 'TimeoutError',
          message: 'bank_statements failed',
        },
      ],
      chain: {
        verdict: 'unverified',
        integrity: true,
        failed: [],
        checks: {
          schema: true,
          consistent: true,
          chain: true,
          digest: true,
          cassette: true,
          signature: 'valid-unpinned',
        },
        signer: { alg: 'Ed25519', key_id: keyId(keys.publicKey) },
      },
    });
    expect(Object.keys(s['events_by_type'] as object)).toEqual(['run', 'tool', 'env', 'llm']); // most frequent first
  });

  it('human output: the verdict, a header line and the key facts in aligned sections', async () => {
    const path = write(signed);
    const io = fakeIO();
    expect(await runCli(['inspect', path], io)).toBe(0);
    const text = io.out();
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      `UNVERIFIED  intact (chain and digests check out) and signed Ed25519 by key ${keyId(keys.publicKey)}; pass --pubkey SIGNER.pub.pem (or --key for HMAC) to prove the signer`,
    );
    expect(lines[1]).toBe('');
    expect(lines[2]).toBe(`loan-approval-agent  ${RUN_ID} · ${path}`);
    expect(text).toMatch(/^ {2}status {4}error$/m);
    expect(text).toMatch(/^ {2}duration {2}2\.95 s$/m);
    expect(text).toContain('events    6  (run 2 · tool 2 · env 1 · llm 1)');
    expect(text).toMatch(/^ {2}openai\/gpt-4o +1 +428 +184 +612 +0$/m);
    expect(text).toMatch(/^ {2}bank_statements +1 +1$/m);
    expect(text).toMatch(/^ {2}now +1$/m);
    expect(text).toContain('TimeoutError: upstream timed out after 1200 ms');
    expect(text).toContain('UNVERIFIED');
    expect(text).toContain(`valid-unpinned (Ed25519, key ${keyId(keys.publicKey)})`);
    expect(text).not.toContain('\u001b['); // not a TTY: no colour
    // Columns line up: the header and each row of the LLM table end at the same column.
    const header = lines.find((l) => l.includes('MODEL'));
    const row = lines.find((l) => l.includes('openai/gpt-4o'));
    expect(header?.length).toBe(row?.length);
  });

  it('shows a tampered record as INVALID first, naming the failed checks, and exits 1', async () => {
    const tampered = structuredClone(signed) as unknown as { events: Record<string, unknown>[] };
    (tampered.events[1] as { usage: unknown }).usage = {
      input_tokens: 1,
      output_tokens: 1,
      total_tokens: 2,
    };
    const io = fakeIO();
    expect(await runCli(['inspect', write(tampered), '--json'], io)).toBe(1);
    const s = JSON.parse(io.out()) as {
      chain: { verdict: string; failed: string[] };
      llm: { total_tokens: number };
    };
    expect(s.chain.verdict).toBe('invalid');
    expect(s.chain.failed).toEqual(['chain', 'digest']);
    expect(s.llm.total_tokens).toBe(2); // inspect shows what the record says; the chain says it was edited

    const human = fakeIO();
    expect(await runCli(['inspect', write(tampered)], human)).toBe(1);
    expect(
      human.out().startsWith('INVALID  this record does not verify (chain, digest failed)'),
    ).toBe(true);
    expect(human.out()).toContain('✗ chain');
    expect(human.out()).toMatch(/chain: .*event 1/);
  });

  it('colours only on a TTY, and never with NO_COLOR', async () => {
    const path = write(signed);
    const tty = fakeIO({ isTTY: true, env: {} });
    await runCli(['inspect', path], tty);
    expect(tty.out()).toContain('\u001b[');
    const noColor = fakeIO({ isTTY: true, env: { NO_COLOR: '1' } });
    await runCli(['inspect', path], noColor);
    expect(noColor.out()).not.toContain('\u001b[');
  });

  it('escapes control characters from the record instead of sending them to the terminal', async () => {
    const input = realisticRun();
    input.run['name'] = 'evil\u001b[2J\u001b]0;pwned\u0007';
    (input.events[0] as Record<string, unknown>)['name'] = input.run['name'];
    (input.events[5] as Record<string, unknown>)['name'] = input.run['name'];
    const io = fakeIO();
    expect(
      await runCli(['inspect', write(sealRecord(input, { generatedAt: GENERATED_AT }))], io),
    ).toBe(0);
    expect(io.out()).not.toContain('\u001b');
    expect(io.out()).not.toContain('\u0007');
    expect(io.out()).toContain('evil\\u001b[2J');
  });

  it('--pubkey pins the signer: VALID and exit 0; another key: UNVERIFIED and exit 2', async () => {
    const dir = tempDir();
    const pub = join(dir, 'signer.pub.pem');
    writeFileSync(pub, publicKeyToPem(keys.publicKey));
    const other = join(dir, 'other.pub.pem');
    writeFileSync(other, publicKeyToPem(generateEd25519KeyPair().publicKey));
    const path = write(signed);
    const valid = fakeIO();
    expect(await runCli(['inspect', path, '--pubkey', pub], valid)).toBe(0);
    expect(valid.out()).toMatch(
      /^VALID {2}intact and signed Ed25519 by key [0-9a-f]+, a key you trust/,
    );
    const json = fakeIO();
    expect(await runCli(['inspect', path, '--pubkey', pub, '--json'], json)).toBe(0);
    expect(JSON.parse(json.out())).toMatchObject({ verdict: 'valid', chain: { verdict: 'valid' } });
    const unpinned = fakeIO();
    expect(await runCli(['inspect', path, '--pubkey', other], unpinned)).toBe(2);
    expect(unpinned.out()).toMatch(/^UNVERIFIED .*which is not a key you gave/);
  });

  it('reads standard input with "-"', async () => {
    const io = fakeIO({ stdin: JSON.stringify(signed) });
    expect(await runCli(['inspect', '-', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ file: '(stdin)', event_count: 6 });
  });

  it.each([
    ['truncated JSON', '{"run": {', 'cannot read', 'as JSON'],
    ['a duplicate member', '{"a": 1, "a": 2}', 'duplicate', 'as JSON'],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1'), 'UTF-8', 'as JSON'],
    ['an array', '[1, 2]', 'is not a runback record', 'got an array'],
  ])('exits 1 on %s with the parse error', async (_label, text, a, b) => {
    const path = join(tempDir(), 'bad.json');
    writeFileSync(
      path,
      text === Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1')
        ? Buffer.from([0x7b, 0xff, 0x7d])
        : text,
    );
    const io = fakeIO();
    expect(await runCli(['inspect', path], io)).toBe(1);
    expect(io.err()).toContain(a);
    expect(io.err()).toContain(b);
    expect(io.out()).toBe('');
  });

  it('summarizes a record that is an object but not a valid record, says why, and exits 1', async () => {
    const io = fakeIO();
    expect(await runCli(['inspect', write({ hello: 'world' }), '--json'], io)).toBe(1);
    const s = JSON.parse(io.out()) as {
      event_count: number;
      chain: { verdict: string; failed: string[] };
    };
    expect(s.event_count).toBe(0);
    expect(s.chain.verdict).toBe('invalid');
    expect(s.chain.failed).toContain('schema');
  });
});
