// runback export --otlp and runback import --otlp: export → import → export through the CLI
// with a key from runback keygen, a hand-written foreign trace, --json output, and errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeIO, tempDir } from '../../test/support.js';
import { runCli } from '../run-cli.js';

const EXAMPLE = new URL('../../../../examples/records/loan-approval.json', import.meta.url)
  .pathname;
const DEMO_KEY = new URL('../../../../examples/keys/demo.pub.pem', import.meta.url).pathname;
const FOREIGN = new URL('../../../otlp/test/fixtures/foreign-genai.json', import.meta.url).pathname;
const AT = '2026-06-14T02:47:14.000Z';

async function cli(args: string[], stdin?: string) {
  const io = fakeIO(stdin === undefined ? {} : { stdin });
  const status = await runCli(args, io);
  return { status, out: io.out(), err: io.err() };
}

async function keys(dir: string) {
  expect((await cli(['keygen', '--out', dir])).status).toBe(0);
  return { key: join(dir, 'runback.key.pem'), pub: join(dir, 'runback.pub.pem') };
}

describe('runback export --otlp', () => {
  it('writes OTLP/JSON to standard output, the verdict with the pinned key on the root span', async () => {
    const r = await cli(['export', '--otlp', EXAMPLE, '--pubkey', DEMO_KEY]);
    expect(r.status).toBe(0);
    const request = JSON.parse(r.out) as {
      resourceSpans: {
        scopeSpans: {
          scope: { name: string };
          spans: { name: string; attributes: { key: string; value: unknown }[] }[];
        }[];
      }[];
    };
    const scope = request.resourceSpans[0]?.scopeSpans[0];
    expect(scope?.scope.name).toBe('@runback/otlp');
    expect(scope?.spans.map((s) => s.name)).toEqual([
      'invoke_agent loan-approval-agent',
      'chat gpt-4o',
      'execute_tool credit_score',
      'chat gpt-4o',
      'execute_tool policy_rate',
      'chat gpt-4o',
    ]);
    const verdict = scope?.spans[0]?.attributes.find((a) => a.key === 'runback.verify.verdict');
    expect(verdict?.value).toEqual({ stringValue: 'valid' });
  });

  it('with --out and --json, writes the file atomically and prints a snake_case summary', async () => {
    const dir = tempDir();
    const out = join(dir, 'traces.json');
    const r = await cli(['export', '--otlp', EXAMPLE, '--out', out, '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      out,
      run_id: 'run_a3f1b90c',
      span_count: 6,
      span_event_count: 4,
      verdict: 'unverified',
    });
    const human = await cli(['export', '--otlp', EXAMPLE, '--out', join(dir, 'b.json')]);
    expect(human.out).toMatch(
      /^✓ Exported run_a3f1b90c \(unverified\) as 6 spans and 4 span events, trace [0-9a-f]{32} → /,
    );
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'b.json'), 'utf8'));
  });

  it('--omit-content leaves prompts, answers and tool data out', async () => {
    const full = await cli(['export', '--otlp', EXAMPLE]);
    const bare = await cli(['export', '--otlp', EXAMPLE, '--omit-content']);
    expect(bare.status).toBe(0);
    expect(full.out).toContain('Equifax');
    expect(bare.out).not.toContain('Equifax');
    expect(bare.out).toContain('gen_ai.usage.input_tokens');
  });

  it('refuses without --otlp, on non-JSON, and on JSON that is not a record', async () => {
    const dir = tempDir();
    const noFormat = await cli(['export', EXAMPLE, '--json']);
    expect(noFormat.status).toBe(64);
    expect(JSON.parse(noFormat.out).error.code).toBe('USAGE_NO_FORMAT');
    writeFileSync(join(dir, 'bad.json'), '{"manifest":');
    const bad = await cli(['export', '--otlp', join(dir, 'bad.json'), '--json']);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.out).error).toMatchObject({ code: 'EXPORT_NOT_JSON', exit_code: 1 });
    writeFileSync(join(dir, 'list.json'), '[1,2]');
    const list = await cli(['export', '--otlp', join(dir, 'list.json'), '--json']);
    expect(JSON.parse(list.out).error.code).toBe('OTLP_NOT_A_RECORD');
    expect(list.err).toMatch(/expected the record to be a JSON object, got an array of 2/);
  });
});

describe('runback import --otlp', () => {
  it('export → import --key → export gives the same record digests and the same traces', async () => {
    const dir = tempDir();
    const { key, pub } = await keys(dir);
    const signed = join(dir, 'signed.json');
    expect(
      (await cli(['sign', EXAMPLE, '--key', key, '--out', signed, '--generated-at', AT])).status,
    ).toBe(0);
    const traces = join(dir, 'traces.json');
    expect((await cli(['export', '--otlp', signed, '--pubkey', pub, '--out', traces])).status).toBe(
      0,
    );
    const imported = join(dir, 'imported.json');
    const r = await cli([
      'import',
      '--otlp',
      traces,
      '--key',
      key,
      '--out',
      imported,
      '--generated-at',
      AT,
      '--json',
    ]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.out) as Record<string, unknown>;
    const original = JSON.parse(readFileSync(signed, 'utf8')) as {
      manifest: { content_digest: string };
    };
    expect(report).toMatchObject({
      source: 'runback',
      matches_export: true,
      content_digest: original.manifest.content_digest,
      verdict: 'valid',
      signed: true,
      warnings: [],
    });
    expect(readFileSync(imported, 'utf8')).toBe(readFileSync(signed, 'utf8'));
    const again = join(dir, 'again.json');
    expect(
      (await cli(['export', '--otlp', imported, '--pubkey', pub, '--out', again])).status,
    ).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(traces, 'utf8'));
    const verified = await cli(['verify', imported, '--pubkey', pub]);
    expect(verified.status).toBe(0);
  });

  it('warns when a runback export’s GenAI attributes were edited after export', async () => {
    const dir = tempDir();
    const traces = join(dir, 'traces.json');
    expect((await cli(['export', '--otlp', EXAMPLE, '--out', traces])).status).toBe(0);
    const text = readFileSync(traces, 'utf8').replace(
      '"gen_ai.tool.name","value":{"stringValue":"credit_score"}',
      '"gen_ai.tool.name","value":{"stringValue":"credit_\\u001b[2Jscore"}',
    );
    writeFileSync(traces, text);
    const r = await cli(['import', '--otlp', traces, '--out', join(dir, 'r.json')]);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(
      /warning {4}span [0-9a-f]{16}: gen_ai\.tool\.name is "credit_\\u001b\[2Jscore", its runback\.event says "credit_score"/,
    );
    expect(r.out).not.toContain('\u001b[2J');
  });

  it('imports another tool’s GenAI trace into a signed record that verifies', async () => {
    const dir = tempDir();
    const { key, pub } = await keys(dir);
    const out = join(dir, 'record.json');
    const r = await cli(['import', '--otlp', FOREIGN, '--key', key, '--out', out]);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(
      /Imported trace 4bf92f3577b34da6a3ce929d0e0e4736 as otlp_4bf92f3577b34da6a3ce929d0e0e4736 \(6 events\)/,
    );
    expect(r.out).toMatch(/read {7}5 GenAI spans, left out 2 other spans/);
    expect(r.out).toMatch(/verified {3}valid/);
    expect((await cli(['verify', out, '--pubkey', pub])).status).toBe(0);
    const inspect = await cli(['inspect', out]);
    expect(inspect.status).toBe(0);
    expect(inspect.out).toContain('claude-sonnet-4-5');
  });

  it('without a key writes an unsigned record to standard output and reports on stderr', async () => {
    const r = await cli(
      ['import', '--otlp', '-', '--run-id', 'run_support'],
      readFileSync(FOREIGN, 'utf8'),
    );
    expect(r.status).toBe(0);
    const record = JSON.parse(r.out) as { manifest: { run_id: string; signed: boolean } };
    expect(record.manifest).toMatchObject({ run_id: 'run_support', signed: false });
    expect(r.err).toMatch(/signature {2}none/);
  });

  it('reports bad input with stable codes, exit 1, and usage mistakes with exit 64', async () => {
    const dir = tempDir();
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const cases: [string[], number, string, RegExp][] = [
      [
        ['import', '--otlp', write('a.json', '{"resourceSpans":[')],
        1,
        'OTLP_NOT_JSON',
        /JSON_SYNTAX/,
      ],
      [
        [
          'import',
          '--otlp',
          write('b.json', '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":5}]}]}]}'),
        ],
        1,
        'OTLP_BAD_FIELD',
        /expected resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.traceId to be 32 hex digits/,
      ],
      [['import', '--otlp', EXAMPLE], 1, 'OTLP_BAD_FIELD', /an object with resourceSpans/],
      [
        ['import', '--otlp', write('c.json', '{"resourceSpans":[]}')],
        1,
        'OTLP_NO_GENAI_SPANS',
        /got 0 spans/,
      ],
      [
        ['import', '--otlp', FOREIGN, '--max-bytes', '100'],
        1,
        'OTLP_TOO_LARGE',
        /at most 100 bytes/,
      ],
      [
        ['import', '--otlp', FOREIGN, '--trace-id', 'ffffffffffffffffffffffffffffffff'],
        1,
        'OTLP_TRACE_NOT_FOUND',
        /GenAI spans in 4bf92f/,
      ],
      [['import', FOREIGN], 64, 'USAGE_NO_FORMAT', /expected --otlp/],
      [
        ['import', '--otlp', FOREIGN, '--trace-id', 'xyz'],
        64,
        'USAGE_BAD_TRACE_ID',
        /32 hex digits, got "xyz"/,
      ],
      [['import', '--otlp', FOREIGN, '--max-bytes', '0'], 64, 'USAGE_BAD_LIMIT', /got "0"/],
      [
        ['import', '--otlp', join(dir, 'missing.json')],
        64,
        'USAGE_UNREADABLE_INPUT',
        /cannot read/,
      ],
      [
        ['import', '--otlp', FOREIGN, '--key', DEMO_KEY],
        64,
        'USAGE_PUBLIC_KEY_GIVEN',
        /public key/,
      ],
    ];
    for (const [args, status, code, message] of cases) {
      const r = await cli([...args, '--json']);
      expect(r.status, args.join(' ')).toBe(status);
      const error = (
        JSON.parse(r.out) as { error: { code: string; message: string; exit_code: number } }
      ).error;
      expect(error.code, args.join(' ')).toBe(code);
      expect(error.exit_code).toBe(status);
      expect(error.message).toMatch(message);
    }
  });

  it('escapes terminal control characters from the trace in its report', async () => {
    const dir = tempDir();
    const text = readFileSync(FOREIGN, 'utf8');
    const out = join(dir, 'r.json');
    const r = await cli([
      'import',
      '--otlp',
      write(dir, text),
      '--run-id',
      'run\u001b[31mred',
      '--out',
      out,
    ]);
    expect(r.status).toBe(0);
    expect(r.out).not.toContain('\u001b');
  });
});

function write(dir: string, text: string): string {
  const path = join(dir, 'traces.json');
  writeFileSync(path, text);
  return path;
}
