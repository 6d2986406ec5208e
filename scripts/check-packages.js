#!/usr/bin/env node
// publint (strict) and attw (--profile esm-only) for every published package: what npm would
// ship must resolve for Node and bundlers, with types. Run after `pnpm build`.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const failures = [];
let checked = 0;

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
  process.stdout.write(`check-packages: publint and attw pass for ${checked} packages\n`);
}
