// Runs the `runback` command as a user does (the built bin, in a child process) on an agent
// program from test/agents, in an environment with no provider key unless the test gives one.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROVIDER_KEY_VARIABLES } from '@runback/sdk/process';
export { tempDir } from '../../../sdk/test/support/temp-dir.js';

const bin = fileURLToPath(
  new URL('../../node_modules/@runback/cli/bin/runback.js', import.meta.url),
);

/** The path of an agent program in test/agents. */
export function agentPath(name: string): string {
  return fileURLToPath(new URL(`../agents/${name}`, import.meta.url));
}

/** What a command printed and how it exited. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The test process's environment without any provider key, runback variable, NODE_OPTIONS or
 * NODE_ENV (vitest sets NODE_ENV=test, which turns the OpenAI Agents SDK's tracing off), plus
 * `extra`.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const keys = new Set(Object.values(PROVIDER_KEY_VARIABLES).flat());
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || keys.has(name) || name.startsWith('RUNBACK_')) continue;
    if (name === 'NODE_OPTIONS' || name === 'NODE_ENV' || name.startsWith('VITEST')) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

/** Runs `runback ARGS...` and collects its output. */
export function runback(args: readonly string[], env: Record<string, string>): Promise<Ran> {
  return runNode([bin, ...args], env);
}

/** Runs `node ARGS...` in this package (so `--import @runback/sdk/preload` resolves). */
export function runNode(args: readonly string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The last line of `runback replay --json`'s standard error: its report. */
export function jsonReport(ran: Ran): Record<string, unknown> {
  const lines = ran.stderr.trim().split('\n');
  const last = lines[lines.length - 1] ?? '';
  try {
    return JSON.parse(last) as Record<string, unknown>;
  } catch {
    throw new Error(`expected a JSON report as the last line of stderr, got:\n${ran.stderr}`);
  }
}
