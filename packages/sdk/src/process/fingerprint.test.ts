import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, platform, release } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/temp-dir.js';
import { environmentFingerprint } from './fingerprint.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'commit.gpgsign=false', ...args],
    {
      cwd,
      encoding: 'utf8',
    },
  );

describe('environmentFingerprint', () => {
  it('records the git revision, and whether the tree has uncommitted or untracked changes', async () => {
    const repo = tempDir();
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'a.txt'), '1');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'init');
    const revision = git(repo, 'rev-parse', 'HEAD').trim();
    expect((await environmentFingerprint(repo, {})).git).toEqual({ revision, dirty: false });

    writeFileSync(join(repo, 'new.txt'), 'untracked');
    expect((await environmentFingerprint(repo, {})).git).toEqual({ revision, dirty: true });
    git(repo, 'add', 'new.txt');
    git(repo, 'commit', '-qm', 'two');
    const second = git(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(join(repo, 'a.txt'), '2');
    expect((await environmentFingerprint(repo, {})).git).toEqual({ revision: second, dirty: true });
  });

  it('git is null outside a repository, or in one without commits', async () => {
    const plain = tempDir();
    expect((await environmentFingerprint(plain, {})).git).toBeNull();
    git(plain, 'init', '-q');
    expect((await environmentFingerprint(plain, {})).git).toBeNull();
  });

  it('finds the nearest lockfile in a parent directory, relative to cwd, with its SHA-256', async () => {
    const root = tempDir();
    const cwd = join(root, 'app', 'src');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9\n');
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect((await environmentFingerprint(cwd, {})).lockfile).toEqual({
      path: join('..', '..', 'pnpm-lock.yaml'),
      sha256: sha('lockfileVersion: 9\n'),
    });
    writeFileSync(join(root, 'app', 'package-lock.json'), '{}');
    expect((await environmentFingerprint(cwd, {})).lockfile).toEqual({
      path: join('..', 'package-lock.json'),
      sha256: sha('{}'),
    });
    writeFileSync(join(cwd, 'yarn.lock'), '# yarn');
    expect((await environmentFingerprint(cwd, {})).lockfile).toEqual({
      path: 'yarn.lock',
      sha256: sha('# yarn'),
    });
  });

  it('records runtime, OS and the sorted names (never the values) of environment variables', async () => {
    const fingerprint = await environmentFingerprint(tempDir(), {
      ZED: 'z',
      OPENAI_API_KEY: 'sk-never-recorded',
      RUNBACK_RECORD_JOURNAL: '/tmp/j',
      ALPHA: undefined,
    });
    expect(fingerprint).toMatchObject({
      node: process.version,
      os: { platform: platform(), release: release(), arch: arch() },
      env_keys: ['ALPHA', 'OPENAI_API_KEY', 'ZED'],
    });
    expect(JSON.stringify(fingerprint)).not.toContain('sk-never-recorded');
  });
});
