// Shared test helpers: an in-memory CommandIO, a realistic run to seal, temp directories.
import type { CommandIO } from '@runback/verify-cli';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A CommandIO that records what is written and reads files from disk (or `stdin` for "-"). */
export interface FakeIO extends CommandIO {
  readonly out: () => string;
  readonly err: () => string;
}

export function fakeIO(
  options: { stdin?: string | Uint8Array; isTTY?: boolean; env?: Record<string, string> } = {},
): FakeIO {
  let out = '';
  let err = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    readInput: async (path) => {
      if (path !== '-') return readFileSync(path);
      if (options.stdin === undefined) throw new Error('no standard input in this test');
      return typeof options.stdin === 'string'
        ? new TextEncoder().encode(options.stdin)
        : options.stdin;
    },
    isTTY: options.isTTY ?? false,
    env: options.env ?? {},
    out: () => out,
    err: () => err,
  };
}

/** A fresh temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'runback-cli-'));
  created.push(dir);
  return dir;
}
const created: string[] = [];
afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export const RUN_ID = 'run_a3f1b90c';

function base(seq: number, span: string, parent: string | null, start: string, end: string) {
  return {
    schema_version: 1,
    run_id: RUN_ID,
    span_id: span,
    parent_span_id: parent,
    seq,
    ts_start: start,
    ts_end: end,
  };
}

/**
 * An unsealed run: start, an llm call with usage, a tool call, an env read (now), a tool call
 * that failed, the end (status error).
 */
export function realisticRun(): {
  run: Record<string, unknown>;
  events: Record<string, unknown>[];
} {
  const events = [
    {
      ...base(0, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:11.000Z'),
      type: 'run',
      phase: 'start',
      name: 'loan-approval-agent',
      status: 'running',
      input: { applicant: 'A-1029' },
      output: null,
      error: null,
      metadata: {},
    },
    {
      ...base(1, 'l1', 'r', '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:12.400Z'),
      type: 'llm',
      model: { provider: 'openai', model_id: 'gpt-4o' },
      request: {
        system: 'You approve loans.',
        messages: [{ role: 'user', content: 'Applicant A-1029' }],
        tools: [],
        params: { temperature: 0 },
      },
      response: {
        text: '',
        reasoning: null,
        finish_reason: 'tool_calls',
        tool_calls: [{ tool_call_id: 'c1', tool_name: 'credit_score', input: { id: 'A-1029' } }],
      },
      usage: { input_tokens: 428, output_tokens: 184, total_tokens: 612 },
      latency_ms: 1400,
      error: null,
    },
    {
      ...base(2, 't1', 'l1', '2026-06-14T02:47:12.400Z', '2026-06-14T02:47:12.600Z'),
      type: 'tool',
      tool_name: 'credit_score',
      tool_call_id: 'c1',
      input: { id: 'A-1029' },
      output: { score: 712 },
      latency_ms: 200,
      error: null,
    },
    {
      ...base(3, 'e1', 'r', '2026-06-14T02:47:12.600Z', '2026-06-14T02:47:12.600Z'),
      type: 'env',
      kind: 'now',
      key: 'now',
      output: '2026-06-14T02:47:12.600Z',
    },
    {
      ...base(4, 't2', 'l1', '2026-06-14T02:47:12.700Z', '2026-06-14T02:47:13.900Z'),
      type: 'tool',
      tool_name: 'bank_statements',
      tool_call_id: 'c2',
      input: { id: 'A-1029' },
      output: null,
      latency_ms: 1200,
      error: { name: 'TimeoutError', message: 'upstream timed out after 1200 ms' },
    },
    {
      ...base(5, 'r', null, '2026-06-14T02:47:11.000Z', '2026-06-14T02:47:13.950Z'),
      type: 'run',
      phase: 'end',
      name: 'loan-approval-agent',
      status: 'error',
      input: null,
      output: null,
      error: { name: 'TimeoutError', message: 'bank_statements failed' },
      metadata: {},
    },
  ];
  const run = {
    run_id: RUN_ID,
    name: 'loan-approval-agent',
    status: 'error',
    started_at: '2026-06-14T02:47:11.000Z',
    ended_at: '2026-06-14T02:47:13.950Z',
  };
  return { run, events };
}

export const GENERATED_AT = '2026-06-14T02:47:14.000Z';

/** The built CLI. */
export const BUILT_CLI = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** What a CLI run printed and how it exited. */
export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The last line of `text` (a --json report on standard error) as a JSON object. */
export function lastJsonLine(text: string): Record<string, unknown> {
  return JSON.parse(text.trimEnd().split('\n').at(-1) ?? '') as Record<string, unknown>;
}

/** Runs node with `args` without blocking this process. */
export function runNode(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  return runProcess(process.execPath, args, env);
}

/**
 * Runs the built CLI without blocking this process (a test's HTTP server must keep answering
 * while it runs), with NO_COLOR set and `env` added.
 */
export function runbackAsync(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<CliRun> {
  return runProcess(process.execPath, [BUILT_CLI, ...args], env, cwd);
}

function runProcess(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      ...(cwd === undefined ? {} : { cwd }),
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `value` with every object's members in reverse order (a producer free to order them). */
export function membersReversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(membersReversed);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(value).reverse())
    out[name] = membersReversed((value as Record<string, unknown>)[name]);
  return out;
}

/** The published implementation's signed sample record (in `dir`), parsed. */
export function publishedSample(dir: string): { events: Record<string, unknown>[] } {
  return JSON.parse(readFileSync(join(dir, 'sample-cassette.ed25519.json'), 'utf8')) as {
    events: Record<string, unknown>[];
  };
}
