// The built service (dist/server.js) as a child process, for tests across processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { ADMIN_TOKEN } from './app.js';

export const SERVER_JS = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'dist',
  'server.js',
);

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the service with `env` on a free port and resolves once it prints its URL. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_JS], {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  // 'close', not 'exit': 'exit' can come before the last of the child's output has been read
  // from its pipes, and tests read the log's final lines (a CI run lost "runback api stopped").
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in 20 s: ${out}${err}`)),
      20_000,
    );
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /runback api: (http:\/\/\S+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve({
          url: match[1] as string,
          child,
          output: () => out,
          stop: () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}${err}`));
    });
  });
}

/** The built CLI (packages/cli/dist/bin.js), for tests that check the service's output with it. */
export const RUNBACK_BIN = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'packages',
  'cli',
  'dist',
  'bin.js',
);

/** Issues an API key for `project` through the admin endpoint of `server`. */
export async function issueToken(server: ServerProcess, project: string): Promise<string> {
  const issued = await fetch(`${server.url}/api/admin/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project }),
  });
  expect(issued.status).toBe(201);
  return ((await issued.json()) as { token: string }).token;
}
