// The environment fingerprint of a recorded command: what would have to be
// the same for a replay to mean anything — runtime, OS, source revision, locked dependencies.
// Variable *names* are recorded, never their values (they hold secrets).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { release, platform, arch } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** What `runback record` stores about where a command ran. */
export interface EnvironmentFingerprint {
  readonly node: string;
  readonly os: { readonly platform: string; readonly release: string; readonly arch: string };
  /** The git revision of the working directory and whether it has uncommitted changes. */
  readonly git: { readonly revision: string; readonly dirty: boolean } | null;
  /** The nearest lockfile, relative to the working directory, and its SHA-256. */
  readonly lockfile: { readonly path: string; readonly sha256: string } | null;
  /** Names of the environment variables the command saw, sorted. */
  readonly env_keys: readonly string[];
}

const LOCKFILES = [
  'pnpm-lock.yaml',
  'package-lock.json',
  'yarn.lock',
  'bun.lock',
  'npm-shrinkwrap.json',
];

/** Reads the fingerprint of `cwd`. Missing git or lockfile gives null, never an error. */
export async function environmentFingerprint(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<EnvironmentFingerprint> {
  const [git, lockfile] = await Promise.all([gitState(cwd), nearestLockfile(cwd)]);
  return {
    node: process.version,
    os: { platform: platform(), release: release(), arch: arch() },
    git,
    lockfile,
    env_keys: Object.keys(env)
      .filter((k) => !k.startsWith('RUNBACK_RECORD_'))
      .sort(),
  };
}

function run(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 10_000, maxBuffer: 64 << 20 }, (err, stdout) =>
      resolve(err ? undefined : stdout),
    );
  });
}

async function gitState(cwd: string): Promise<EnvironmentFingerprint['git']> {
  const revision = await run(cwd, ['rev-parse', 'HEAD']);
  if (revision === undefined) return null;
  const status = await run(cwd, ['status', '--porcelain', '--untracked-files=normal']);
  return { revision: revision.trim(), dirty: status === undefined || status.trim() !== '' };
}

async function nearestLockfile(cwd: string): Promise<EnvironmentFingerprint['lockfile']> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const name of LOCKFILES) {
      const path = join(dir, name);
      try {
        const bytes = await readFile(path);
        return {
          path: relative(cwd, path) || name,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        };
      } catch {
        // not here
      }
    }
    if (dirname(dir) === dir) return null;
  }
}
