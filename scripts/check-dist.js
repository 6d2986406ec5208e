#!/usr/bin/env node
// Fails when a published package's build output holds code from outside its own src/.
//
// esbuild marks every module it inlines with a `// <path>` comment relative to the package
// root: a package's own modules read `// src/...`; another workspace package's build reads
// `// ../verify/dist/...` (or `// ../../packages/...`), and an inlined dependency reads
// `// ../../node_modules/...` or `// node_modules/...`. Any of those means a user would load
// a second copy of code that must exist once (house rule 2: one verify function).
//
// Usage: node scripts/check-dist.js [packages-dir]   (run after `pnpm build`)
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const packagesDir = process.argv[2] ?? join(root, 'packages');

const FOREIGN_BANNER = /^\/\/ (?:\.\.\/|node_modules\/)\S*$/gm;

async function filesUnder(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (/\.(?:js|mjs|cjs)$/.test(entry.name)) out.push(path);
  }
  return out;
}

async function main() {
  const problems = [];
  let checked = 0;
  for (const entry of await readdir(packagesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const pkgDir = join(packagesDir, entry.name);
    let manifest;
    try {
      manifest = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (manifest.private) continue;
    let files;
    try {
      files = await filesUnder(join(pkgDir, 'dist'));
    } catch {
      problems.push(`${manifest.name}: no dist/ (run pnpm build first)`);
      continue;
    }
    if (files.length === 0) problems.push(`${manifest.name}: dist/ holds no JavaScript`);
    for (const file of files) {
      checked++;
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(FOREIGN_BANNER)) {
        const line = text.slice(0, match.index).split('\n').length;
        problems.push(`${relative(root, file)}:${line}: inlined foreign source "${match[0]}"`);
      }
    }
  }
  if (problems.length > 0) {
    process.stderr.write(`check-dist: ${problems.length} problem(s)\n${problems.join('\n')}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`check-dist: ${checked} files, no inlined workspace or dependency code\n`);
}

await main();
