// Runs the shell snippets of a document as written: each ```sh block's commands (a line ending
// in "\" continues on the next; comment lines are skipped) are run by bash in a test folder,
// with `runback` and `npx` on the PATH as shims that run this checkout's built bins (the npx
// shim knows only our own packages, so a snippet naming another package fails). A test lists,
// for every command, what it must do; a command the document has and the list lacks fails, so a
// new snippet cannot go untested.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

export const REPO = join(import.meta.dirname, '..', '..', '..');
const RUNBACK_BIN = join(REPO, 'packages', 'cli', 'bin', 'runback.js');
const VERIFY_BIN = join(REPO, 'packages', 'verify', 'bin', 'runback-verify.js');

/** The commands of each ```sh block of `doc` (a path from the repository root), in order. */
export function shellCommands(doc: string): string[] {
  const text = readFileSync(join(REPO, doc), 'utf8');
  const commands: string[] = [];
  for (const match of text.matchAll(/^```(?:sh|bash)\n([\s\S]*?)^```/gm)) {
    const lines = (match[1] ?? '').split('\n');
    let pending = '';
    for (const line of lines) {
      if (pending === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
      if (line.endsWith('\\')) pending += line.slice(0, -1).trimEnd() + ' ';
      else {
        commands.push((pending + line.trim()).trim());
        pending = '';
      }
    }
  }
  return commands;
}

/** The body of the first fenced block of `lang` in `doc` that follows the text `after`. */
export function fencedBlock(doc: string, lang: string, after = ''): string {
  const text = readFileSync(join(REPO, doc), 'utf8');
  const from = text.indexOf(after);
  if (from < 0) throw new Error(`expected ${JSON.stringify(after)} in ${doc}, got no such text`);
  const body = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```', 'm').exec(text.slice(from))?.[1];
  if (body === undefined) throw new Error(`expected a ${lang} block in ${doc}, got none`);
  return body;
}

/** A folder holding `runback` and `npx` shims for this checkout's bins. */
export function shimDir(root: string): string {
  const dir = join(root, '.shims');
  mkdirSync(dir, { recursive: true });
  const node = process.execPath;
  const write = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  write('runback', `exec "${node}" "${RUNBACK_BIN}" "$@"`);
  write(
    'npx',
    [
      'case "$1 $2 $3" in',
      `  "-p @runback/cli runback") shift 3; exec "${node}" "${RUNBACK_BIN}" "$@" ;;`,
      'esac',
      'case "$1" in',
      `  @runback/cli) shift; exec "${node}" "${RUNBACK_BIN}" "$@" ;;`,
      `  @runback/verify) shift; exec "${node}" "${VERIFY_BIN}" "$@" ;;`,
      '  *) echo "npx (test shim): expected a package of ours, got $*" >&2; exit 127 ;;',
      'esac',
    ].join('\n'),
  );
  return dir;
}

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` with bash in `cwd`, the shims first on the PATH, colour off. */
export function runShell(
  command: string,
  cwd: string,
  shims: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      cwd,
      env: {
        ...process.env,
        PATH: `${shims}:${process.env['PATH'] ?? ''}`,
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What a listed command must do. */
export interface Expect {
  /** Its exit status. */
  readonly exit: number;
  readonly stdout?: RegExp;
  readonly stderr?: RegExp;
  /** Runs first (a fixture the snippet assumes, a server to stop). */
  readonly before?: () => unknown;
  /** Checks after it ran (files it wrote). */
  readonly after?: (ran: Ran) => unknown;
  /** The command as run, when the document's needs a local address filled in. */
  readonly as?: () => string;
  readonly env?: Record<string, string>;
}

/** A command the test does not run here, and where it is tested instead (or why not). */
export interface Elsewhere {
  readonly elsewhere: string;
}

export type Plan = Record<string, Expect | Elsewhere>;

/** Runs every command of `doc` that `plan` lists, in order; the plan must list every one. */
export async function runDoc(
  doc: string,
  plan: Plan,
  cwd: string,
  check: (command: string, ran: Ran, want: Expect) => void,
): Promise<string[]> {
  const commands = shellCommands(doc);
  const unlisted = commands.filter((c) => !(c in plan));
  if (unlisted.length > 0)
    throw new Error(
      `expected every command of ${doc} in the plan, got unlisted: ${unlisted.join(' | ')}`,
    );
  const stale = Object.keys(plan).filter((c) => !commands.includes(c));
  if (stale.length > 0)
    throw new Error(`expected every planned command in ${doc}, got missing: ${stale.join(' | ')}`);
  const shims = shimDir(cwd);
  const ran: string[] = [];
  for (const command of commands) {
    const want = plan[command] as Expect | Elsewhere;
    if ('elsewhere' in want) continue;
    await want.before?.();
    const result = await runShell(want.as?.() ?? command, cwd, shims, want.env);
    check(command, result, want);
    await want.after?.(result);
    ran.push(command);
  }
  return ran;
}

/** Asserts what `want` says of a command's run, showing its output when it fails. */
export function check(command: string, ran: Ran, want: Expect): void {
  const said = `${command}\n--- stdout\n${ran.stdout}\n--- stderr\n${ran.stderr}`;
  expect(ran.code, said).toBe(want.exit);
  if (want.stdout !== undefined) expect(ran.stdout, said).toMatch(want.stdout);
  if (want.stderr !== undefined) expect(ran.stderr, said).toMatch(want.stderr);
}

/** Runs a set-up command a document assumes; it must succeed. */
export async function given(
  dir: string,
  command: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  const ran = await runShell(command, dir, shimDir(dir), env);
  expect(ran.code, `${command}\n${ran.stderr}`).toBe(0);
  return ran;
}
