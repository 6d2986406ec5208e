#!/usr/bin/env node
// publint (strict) and attw (--profile esm-only) for every published package: what npm would
// ship must resolve for Node and bundlers, with types. Run after `pnpm build`. It also checks
// what npm provenance and users need from each manifest: the licence file beside it, and
// `repository` (with this folder as `directory`), `homepage` and `bugs`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const failures = [];
let checked = 0;
const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');

function metadataProblems(manifest, name, dir) {
  const problems = [];
  const licensePath = join(dir, 'LICENSE');
  if (!existsSync(licensePath)) problems.push('expected a LICENSE file, got none');
  else if (readFileSync(licensePath, 'utf8') !== rootLicense)
    problems.push('expected LICENSE to equal the repository LICENSE, got a different text');
  if (manifest.license !== 'Apache-2.0')
    problems.push(`expected license "Apache-2.0", got ${JSON.stringify(manifest.license)}`);
  const repo = manifest.repository;
  if (typeof repo !== 'object' || repo === null || typeof repo.url !== 'string')
    problems.push('expected repository { type, url, directory }, got ' + JSON.stringify(repo));
  else if (repo.directory !== `packages/${name}`)
    problems.push(
      `expected repository.directory "packages/${name}", got ${JSON.stringify(repo.directory)}`,
    );
  if (typeof manifest.homepage !== 'string') problems.push('expected a homepage, got none');
  if (typeof manifest.bugs?.url !== 'string') problems.push('expected bugs.url, got none');
  return problems;
}

for (const name of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', name);
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  if (manifest.private) continue;
  checked++;
  for (const problem of metadataProblems(manifest, name, dir))
    failures.push(`${manifest.name}: ${problem}`);
  for (const [tool, args] of [
    ['publint', ['--strict', dir]],
    ['attw', ['--pack', dir, '--profile', 'esm-only', '--format', 'table-flipped']],
  ]) {
    const run = spawnSync(bin(tool), args, { cwd: dir, encoding: 'utf8' });
    if (run.status !== 0) {
      failures.push(`${manifest.name}: ${tool} failed\n${run.stdout}${run.stderr}`);
    }
  }
}

if (failures.length > 0) {
  process.stderr.write(`check-packages: ${failures.length} failure(s)\n\n${failures.join('\n')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    `check-packages: publint, attw and manifest metadata pass for ${checked} packages\n`,
  );
}
