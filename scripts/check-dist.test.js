// node --test: scripts/check-dist.js against made-up package folders.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const script = new URL('./check-dist.js', import.meta.url).pathname;

function packagesWith(files) {
  const dir = mkdtempSync(join(tmpdir(), 'check-dist-'));
  const pkg = join(dir, 'demo');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@runback/demo' }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(pkg, 'dist', name), text);
  return dir;
}

function run(dir) {
  const result = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  return result;
}

test('a dist of its own sources passes', () => {
  const result = run(packagesWith({ 'index.js': '// src/index.ts\nexport const a = 1;\n' }));
  assert.equal(result.status, 0, result.stderr);
});

for (const banner of [
  '// ../verify/dist/chunk-HZNQ4TWL.js',
  '// ../../packages/verify/src/verify.ts',
  '// ../../node_modules/.pnpm/@noble+hashes@2.4.0/node_modules/@noble/hashes/utils.js',
  '// node_modules/@scure/base/index.js',
]) {
  test(`an inlined module is reported: ${banner}`, () => {
    const text = `// src/index.ts\nimport x from 'y';\n${banner}\nvar inlined = 1;\n`;
    const result = run(packagesWith({ 'chunk-A.js': text }));
    assert.equal(result.status, 1);
    assert.match(result.stderr, /chunk-A\.js:3: inlined foreign source/);
  });
}

test('a package without a dist fails instead of passing vacuously', () => {
  const dir = mkdtempSync(join(tmpdir(), 'check-dist-'));
  mkdirSync(join(dir, 'demo'));
  writeFileSync(join(dir, 'demo', 'package.json'), JSON.stringify({ name: '@runback/demo' }));
  const result = run(dir);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /@runback\/demo: no dist/);
});
