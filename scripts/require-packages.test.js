// node --test: every published package can be require()d from CommonJS on Node 20.19+ (which
// loads ES modules synchronously) and exposes the same names as its import(). Each package
// is required from a CommonJS file inside it, so its own exports map ("default" condition)
// is what resolves. Run after `pnpm build`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const packages = new URL('../packages/', import.meta.url).pathname;

for (const dir of readdirSync(packages).sort()) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(packages, dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  if (manifest.private) continue;
  const subpaths = Object.keys(manifest.exports ?? {}).filter(
    (s) => s !== './package.json' && s !== './preload',
  );
  test(`require() of ${manifest.name} and its subpaths`, () => {
    const tmp = mkdtempSync(join(packages, dir, '.require-check-'));
    try {
      const probe = join(tmp, 'probe.cjs');
      writeFileSync(
        probe,
        `const out = {};\n` +
          `(async () => {\n` +
          subpaths
            .map((s) => {
              const spec = s === '.' ? manifest.name : `${manifest.name}/${s.slice(2)}`;
              return `  out[${JSON.stringify(spec)}] = [Object.keys(require(${JSON.stringify(spec)})).sort(), Object.keys(await import(${JSON.stringify(spec)})).sort()];\n`;
            })
            .join('') +
          `  process.stdout.write(JSON.stringify(out));\n})();\n`,
      );
      const run = spawnSync(process.execPath, [probe], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      const result = JSON.parse(run.stdout);
      assert.equal(Object.keys(result).length, subpaths.length);
      for (const [spec, [required, imported]] of Object.entries(result)) {
        assert.ok(required.length > 0, `${spec}: require() gave no exports`);
        assert.deepEqual(required, imported, spec);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
}
