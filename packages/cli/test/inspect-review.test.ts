// runback inspect as a reviewer uses it, on real records: the published implementation's
// samples, a zero-code record of the loan example (the real `openai` client against its mock
// server, through the built CLI), and provider-shaped records from other producers. The
// verdict comes first, keys make it VALID, and the run's input, outcome and tool calls show.
import { sealRecord } from '@runback/sign';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTerminalControl } from '@runback/verify-cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedVectorsDir } from '../../../test-support/vectors.js';
import { runCli } from '../src/run-cli.js';
import { fakeIO, runbackAsync, tempDir } from './support.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/loan-approval-agent/', import.meta.url));
const vectors = sharedVectorsDir();
const published = vectors === null ? null : join(vectors, 'runback-published');
const HMAC_SECRET = 'community-shared-secret-ü';

interface Inspected {
  verdict: string;
  run: { name: string | null; input: unknown; output: unknown; error: unknown };
  program: {
    name: string | null;
    argv: string[];
    exit_code: number | null;
    stdout: string | null;
  } | null;
  answer: string | null;
  tool_calls: {
    tool_name: string;
    source: string;
    input: unknown;
    output: unknown;
    error: unknown;
    policy_block: unknown;
  }[];
}

async function inspect(args: string[]) {
  const io = fakeIO();
  const status = await runCli(['inspect', ...args], io);
  return { status, out: io.out(), err: io.err() };
}

describe.runIf(published !== null)("inspect on the published implementation's records", () => {
  const file = (name: string) => join(published as string, name);

  it('the signed sample is UNVERIFIED without keys, VALID with --pubkey, verdict first', async () => {
    const bare = await inspect([file('sample-cassette.ed25519.json')]);
    expect(bare.status).toBe(0);
    expect(bare.out.split('\n')[0]).toMatch(/^UNVERIFIED {2}intact/);
    const pinned = await inspect([
      file('sample-cassette.ed25519.json'),
      '--pubkey',
      file('signer.pub.pem'),
    ]);
    expect(pinned.status, pinned.err).toBe(0);
    expect(pinned.out.split('\n')[0]).toMatch(/^VALID {2}intact and signed Ed25519 by key /);
  });

  it('the HMAC sample is VALID with --key and with --hmac-key-file; a wrong secret is INVALID', async () => {
    const record = file('sample-cassette.hmac.json');
    const inline = await inspect([record, '--key', HMAC_SECRET, '--json']);
    expect(inline.status, inline.err).toBe(0);
    expect((JSON.parse(inline.out) as Inspected).verdict).toBe('valid');
    const keyFile = join(tempDir(), 'hmac.key');
    writeFileSync(keyFile, HMAC_SECRET + '\n');
    const fromFile = await inspect([record, '--hmac-key-file', keyFile]);
    expect(fromFile.status, fromFile.err).toBe(0);
    expect(fromFile.out.startsWith('VALID')).toBe(true);
    // As runback verify: an HMAC tag that does not match the secret given is a bad signature.
    const wrong = await inspect([record, '--key', 'not-the-secret']);
    expect(wrong.status).toBe(1);
    expect(wrong.out.split('\n')[0]).toMatch(/^INVALID .*\(signature failed\)/);
  });

  it('--key given a PEM file is refused with a pointer to --pubkey (exit 64, JSON error)', async () => {
    const r = await inspect([
      file('sample-cassette.ed25519.json'),
      '--key',
      file('signer.pub.pem'),
      '--json',
    ]);
    expect(r.status).toBe(64);
    expect(JSON.parse(r.out)).toMatchObject({ error: { code: 'USAGE_KEY_IS_PEM' } });
    expect(r.err).toContain('--pubkey');
  });

  it("shows the run's input, its error, the model's answer and each tool call with its input", async () => {
    const r = await inspect([file('sample-cassette.unsigned.json'), '--json']);
    expect(r.status).toBe(0);
    const s = JSON.parse(r.out) as Inspected;
    expect(Object.keys(s)[0]).toBe('verdict');
    expect(s.verdict).toBe('unverified');
    expect(s.run.input).toBe('Applicant #4471 requests a $12,000 personal loan.');
    expect(s.run.error).toEqual({
      name: 'PolicyBlock',
      message: 'issue_approval blocked — manual-review-required',
    });
    expect(s.answer).toBe('Credit is sufficient — approving.');
    expect(s.tool_calls.map((c) => [c.tool_name, c.source, c.input])).toEqual([
      ['check_credit_file', 'tool_event', { applicant_id: 4471 }],
      ['issue_approval', 'tool_event', { applicant_id: 4471, amount: 12000 }],
    ]);
    expect(s.tool_calls[1]).toMatchObject({
      error: { name: 'PolicyBlock' },
      policy_block: { rule: 'manual-review-required' },
    });

    const human = (await inspect([file('sample-cassette.unsigned.json')])).out;
    expect(human).toMatch(/^ {2}input {5}Applicant #4471 requests a \$12,000 personal loan\.$/m);
    expect(human).toMatch(/^ {2}error {5}PolicyBlock: issue_approval blocked/m);
    expect(human).toContain('issue_approval  {"applicant_id":4471,"amount":12000}');
    expect(human).toContain('✗ PolicyBlock: Blocked: an open dispute');
    expect(human).toContain('policy {"rule":"manual-review-required"');
  });

  it('a tampered copy shows INVALID before any content, and exits 1', async () => {
    const record = JSON.parse(readFileSync(file('sample-cassette.ed25519.json'), 'utf8')) as {
      events: { output?: { score?: number } }[];
    };
    (record.events[2]?.output as { score: number }).score = 799;
    const path = join(tempDir(), 'tampered.json');
    writeFileSync(path, JSON.stringify(record, null, 2));
    const r = await inspect([path, '--pubkey', file('signer.pub.pem')]);
    expect(r.status).toBe(1);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^INVALID {2}this record does not verify \(chain, .*failed\)/);
    const verdictAt = r.out.indexOf('INVALID');
    expect(verdictAt).toBeLessThan(r.out.indexOf('loan-approval-agent'));
    expect(verdictAt).toBeLessThan(r.out.indexOf('799'));
    expect(r.out).toContain('What follows is what the file claims');
    const json = await inspect([path, '--json']);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ verdict: 'invalid' });
  });
});

describe('inspect on a zero-code record of the loan example (runback record, real openai client)', () => {
  let dir: string;
  let record: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'runback-inspect-'));
    const { startMockOpenAI } = (await import(join(EXAMPLE, 'mock-openai-server.js'))) as {
      startMockOpenAI: () => Promise<{ url: string; close: () => Promise<void> }>;
    };
    const mock = await startMockOpenAI();
    record = join(dir, 'zero-code.json');
    try {
      const r = await runbackAsync([
        'record',
        '--out',
        record,
        '--',
        process.execPath,
        join(EXAMPLE, 'agent.js'),
        '--base-url',
        mock.url,
      ]);
      expect(r.status, r.stderr).toBe(0);
    } finally {
      await mock.close();
    }
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the program after its script, with its exit status, output and tool calls', async () => {
    const r = await inspect([record, '--json']);
    expect(r.status, r.err).toBe(0);
    const s = JSON.parse(r.out) as Inspected;
    expect(s.run.name).toBe('agent.js'); // runback record names the run after the script
    expect(s.program).toMatchObject({ name: 'agent.js', exit_code: 0 });
    expect(s.program?.argv[0]).toBe(process.execPath);
    expect(JSON.parse(s.program?.stdout ?? 'null')).toMatchObject({ decision: 'approve' });
    expect(s.tool_calls).toEqual([
      expect.objectContaining({
        tool_name: 'get_credit_score',
        source: 'model_request',
        input: { applicant_id: 'A-1029' },
        output: { applicant_id: 'A-1029', score: 742, bureau: 'mock-bureau' },
      }),
      expect.objectContaining({
        tool_name: 'verify_income',
        source: 'model_request',
        input: { applicant_id: 'A-1029' },
        output: expect.objectContaining({ verified: true }) as unknown,
      }),
    ]);

    const human = (await inspect([record])).out;
    const lines = human.split('\n');
    expect(lines[0]).toMatch(/^UNVERIFIED {2}intact .*unsigned/);
    expect(lines[2]).toMatch(/^agent\.js {2}run_/);
    expect(human).toMatch(/^ {2}program {3}agent\.js {2}/m);
    expect(human).toMatch(/^ {2}exit {6}0$/m);
    expect(human).toMatch(/^ {2}stdout {4}\{"applicant_id":"A-1029","decision":"approve"/m);
    expect(human).toContain('get_credit_score  {"applicant_id":"A-1029"}');
    expect(human).toContain('→ {"applicant_id":"A-1029","score":742');
  });

  it('an old record named "node" is still titled after its script', async () => {
    const original = JSON.parse(readFileSync(record, 'utf8')) as {
      run: Record<string, unknown>;
      events: Record<string, unknown>[];
    };
    // The same run as a producer that named it after the command would write it.
    const run = { ...original.run, name: 'node' };
    const events = original.events.map((e) => {
      const { _hash: _, ...rest } = e;
      return e['type'] === 'run' ? { ...rest, name: 'node' } : rest;
    });
    const sealed = sealRecord({ run, events }, { generatedAt: '2026-06-14T00:00:00.000Z' });
    const path = join(tempDir(), 'named-node.json');
    writeFileSync(path, JSON.stringify(sealed));
    const r = await inspect([path]);
    expect(r.status, r.err).toBe(0);
    expect(r.out.split('\n')[2]).toMatch(/^agent\.js {2}run_/);
  });
});

describe('inspect recognises tool calls in provider-shaped responses (other producers)', () => {
  const base = (seq: number, extra: Record<string, unknown>) => ({
    schema_version: 1,
    run_id: 'run_provider',
    span_id: `s${seq}`,
    parent_span_id: seq === 0 ? null : 's0',
    seq,
    ts_start: '2026-06-14T02:47:11.000Z',
    ts_end: '2026-06-14T02:47:12.000Z',
    ...extra,
  });
  const runStart = base(0, {
    type: 'run',
    phase: 'start',
    name: 'x',
    input: { argv: ['python3', '-u', 'agents/triage.py'], cwd: '/srv' },
    output: null,
    status: 'running',
    error: null,
    metadata: {},
  });
  const runEnd = (seq: number) =>
    base(seq, {
      type: 'run',
      phase: 'end',
      name: 'x',
      input: null,
      output: { exit_code: 3, signal: null, stdout: { text: '', bytes: 0 } },
      status: 'error',
      error: { name: 'NonZeroExit', message: 'exited with 3' },
      metadata: {},
    });
  const seal = (events: Record<string, unknown>[]) => {
    const path = join(tempDir(), 'provider.json');
    // Pretty printed, members in another order than our writer's.
    const record = sealRecord(
      { run: { name: 'x', run_id: 'run_provider', status: 'error' }, events },
      { generatedAt: '2026-06-14T00:00:00.000Z' },
    );
    writeFileSync(path, JSON.stringify(Object.assign({ events: record.events }, record), null, 3));
    return path;
  };

  it('Anthropic tool_use blocks in response.raw, with tool_result blocks (is_error) as results', async () => {
    const path = seal([
      runStart,
      base(1, {
        type: 'llm',
        model: { provider: 'anthropic', model_id: 'claude-sonnet' },
        request: { messages: [{ role: 'user', content: 'refund order 7?' }] },
        response: {
          text: null,
          raw: {
            type: 'message',
            role: 'assistant',
            content: [
              { type: 'text', text: 'Looking it up.' },
              { type: 'tool_use', id: 'toolu_1', name: 'lookup_order', input: { order: 7 } },
              { type: 'tool_use', id: 'toolu_2', name: 'refund', input: { order: 7, eur: 40 } },
            ],
          },
        },
        usage: { input_tokens: 10, output_tokens: 5 },
        error: null,
      }),
      base(2, {
        type: 'llm',
        model: { provider: 'anthropic', model_id: 'claude-sonnet' },
        request: {
          messages: [
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: 'toolu_1',
                  content: [{ type: 'text', text: '{"status":"shipped"}' }],
                },
                { type: 'tool_result', tool_use_id: 'toolu_2', content: 'denied', is_error: true },
              ],
            },
          ],
        },
        response: { text: 'Refund denied.' },
        error: null,
      }),
      runEnd(3),
    ]);
    const r = await inspect([path, '--json']);
    expect(r.status, r.err).toBe(0);
    const s = JSON.parse(r.out) as Inspected;
    expect(s.tool_calls.map((c) => [c.tool_name, c.input, c.output, c.error])).toEqual([
      ['lookup_order', { order: 7 }, { status: 'shipped' }, null],
      ['refund', { order: 7, eur: 40 }, 'denied', 'denied'],
    ]);
    expect(s.program).toMatchObject({ name: 'triage.py', exit_code: 3 });
    expect(s.answer).toBe('Refund denied.');
    const human = (await inspect([path])).out;
    expect(human).toMatch(/^ {2}exit {6}3$/m);
    expect(human).toContain('✗ denied');
  });

  it('OpenAI Chat and Responses bodies in recorded fetches (no llm events)', async () => {
    const chat = {
      id: 'c1',
      choices: [
        {
          message: {
            role: 'assistant',
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'get_rate', arguments: '{"pair":"EURUSD"}' },
              },
            ],
          },
        },
      ],
    };
    const responses = {
      id: 'r1',
      output: [{ type: 'function_call', call_id: 'call_b', name: 'book', arguments: '{"n":2}' }],
    };
    const fetchEvent = (seq: number, request: unknown, body: unknown) =>
      base(seq, {
        type: 'env',
        kind: 'fetch',
        key: `k${seq}`,
        input: {
          method: 'POST',
          url: 'https://api.example/v1',
          body: { text: JSON.stringify(request) },
        },
        output: { status: 200, headers: {}, body: { text: JSON.stringify(body) } },
      });
    const path = seal([
      runStart,
      fetchEvent(1, { messages: [{ role: 'user', content: 'rate?' }] }, chat),
      fetchEvent(
        2,
        { messages: [{ role: 'tool', tool_call_id: 'call_a', content: '{"rate":1.08}' }] },
        responses,
      ),
      fetchEvent(
        3,
        { input: [{ type: 'function_call_output', call_id: 'call_b', output: 'ok' }] },
        {
          id: 'r2',
          output: [],
        },
      ),
      runEnd(4),
    ]);
    const r = await inspect([path, '--json']);
    expect(r.status, r.err).toBe(0);
    const s = JSON.parse(r.out) as Inspected;
    expect(s.tool_calls.map((c) => [c.tool_name, c.input, c.output])).toEqual([
      ['get_rate', { pair: 'EURUSD' }, { rate: 1.08 }],
      ['book', { n: 2 }, 'ok'],
    ]);
  });

  it('hostile tool names and inputs are escaped in the tool call lines', async () => {
    const evil = 'x\u001b]0;pwned\u0007\u001b[31m\u202e';
    const path = seal([
      runStart,
      base(1, {
        type: 'llm',
        model: { provider: 'openai', model_id: 'gpt' },
        request: { messages: [] },
        response: { tool_calls: [{ tool_call_id: 'c', tool_name: evil, input: { q: evil } }] },
        error: null,
      }),
      runEnd(2),
    ]);
    const r = await inspect([path]);
    expect(r.status).toBe(0);
    expect(hasTerminalControl(r.out.replaceAll('\n', ''))).toBe(false);
    expect(r.out).toContain('x\\u001b]0;pwned');
  });
});

describe('inspect keys and flags', () => {
  it('a bad --pubkey names the flag and file, not an option path', async () => {
    const dir = tempDir();
    const pem = join(dir, 'not-a-key.pem');
    writeFileSync(pem, 'hello\n');
    const record = join(dir, 'r.json');
    copyFileSync(join(EXAMPLE, 'package.json'), record);
    const r = await inspect([record, '--pubkey', pem, '--json']);
    expect(r.status).toBe(64);
    const error = (JSON.parse(r.out) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('USAGE_BAD_PUBLIC_KEY');
    expect(error.message).toContain(`--pubkey ${pem}: expected`);
    expect(r.err).not.toContain('trust.');
  });
});
