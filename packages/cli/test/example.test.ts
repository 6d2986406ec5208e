// The loan-approval example, end to end: recorded by the
// SDK it verifies valid; recorded as a program it replays with its mock server stopped and
// reproduces; a reworded prompt fails strict replay naming the call, completes ordered replay,
// and `runback diff` shows exactly that change and nothing else.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicKeyFromPem } from '@runback/sign';
import { verifyJson } from '@runback/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runbackAsync, runNode } from './support.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/loan-approval-agent/', import.meta.url));
const AGENT = join(EXAMPLE, 'agent.js');
const CLOSED = 'http://127.0.0.1:9/v1';

interface Mock {
  readonly url: string;
  readonly calls: () => number;
  readonly close: () => Promise<void>;
}

let dir: string;
let key: string;
let pinned: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runback-example-'));
  expect((await runbackAsync(['keygen', '--out', dir])).status).toBe(0);
  key = join(dir, 'runback.key.pem');
  pinned = publicKeyFromPem(readFileSync(join(dir, 'runback.pub.pem'), 'utf8'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function startMock(): Promise<Mock> {
  const { startMockOpenAI } = (await import(join(EXAMPLE, 'mock-openai-server.js'))) as {
    startMockOpenAI: () => Promise<Mock>;
  };
  return startMockOpenAI();
}

describe('examples/loan-approval-agent', () => {
  it('main.js records a signed run with the SDK that verifies valid and holds no API key', async () => {
    const out = join(dir, 'sdk.json');
    const r = await runNode([join(EXAMPLE, 'main.js'), '--out', out, '--key', key]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('decision: approve');
    const bytes = readFileSync(out);
    expect(verifyJson(bytes, { pinned: [pinned] }).verdict).toBe('valid');
    expect(bytes.includes('sk-example-0000')).toBe(false);
    const record = JSON.parse(bytes.toString()) as {
      events: { type: string; tool_name?: string }[];
    };
    expect(record.events.map((e) => e.tool_name ?? e.type)).toEqual([
      'run',
      'llm',
      'get_credit_score',
      'verify_income',
      'llm',
      'run',
    ]);
  });

  it('replays with the mock stopped; a changed prompt fails strict, completes ordered, diffs exactly', async () => {
    const mock = await startMock();
    const baseline = join(dir, 'baseline.json');
    const recorded = await runbackAsync([
      'record',
      '--out',
      baseline,
      '--key',
      key,
      '--',
      process.execPath,
      AGENT,
      '--base-url',
      mock.url,
    ]);
    await mock.close();
    expect(recorded.status, recorded.stderr).toBe(0);
    expect(mock.calls()).toBe(2);

    const same = await runbackAsync([
      'replay',
      baseline,
      '--pubkey',
      join(dir, 'runback.pub.pem'),
      '--json',
      '--',
      process.execPath,
      AGENT,
      '--base-url',
      CLOSED,
    ]);
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toBe(recorded.stdout);
    expect(JSON.parse(same.stderr.trim().split('\n').at(-1) as string)).toMatchObject({
      status: 'reproduced',
      verdict: 'valid',
    });

    const changed = [
      '--',
      process.execPath,
      AGENT,
      '--base-url',
      CLOSED,
      '--prompt-style',
      'brief',
    ];
    const strict = await runbackAsync(['replay', baseline, ...changed]);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toMatch(
      /DIVERGED at call \d+ \(llm gpt-4o-mini\): no recorded call answers it \(a replay miss/,
    );
    expect(strict.stderr).toMatch(/nearest recorded call \d+ \(seq \d+\)/);
    expect(strict.stderr).toContain('/messages/0/content');
    expect(strict.stderr).toContain(
      'strict replay: no recorded llm call "gpt-4o-mini" matches this request',
    );

    const candidate = join(dir, 'candidate.json');
    const ordered = await runbackAsync([
      'replay',
      baseline,
      '--mode',
      'ordered',
      '--out',
      candidate,
      ...changed,
    ]);
    expect(ordered.status).toBe(1);
    expect(ordered.stdout).toBe(recorded.stdout); // completed, on recorded answers

    const diff = await runbackAsync(['diff', baseline, candidate, '--json']);
    expect(diff.status).toBe(1);
    const result = JSON.parse(diff.stdout) as {
      steps: { change: string; name: string; input: { path: string }[]; output: unknown[] }[];
      run: { input: { path: string }[]; output: unknown[] };
    };
    // Both model calls carry the reworded system prompt; nothing else changed.
    expect(
      result.steps.map((s) => [s.change, s.name, s.input.map((c) => c.path), s.output]),
    ).toEqual([
      ['changed', 'gpt-4o-mini', ['/request/messages/0/content'], []],
      ['changed', 'gpt-4o-mini', ['/request/messages/0/content'], []],
    ]);
    expect(result.run.output).toEqual([]);
  });
});
