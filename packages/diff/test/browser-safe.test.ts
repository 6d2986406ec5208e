// The package must load in a browser: no source file imports a node:* module or anything
// but the trust-core packages and `diff` (the dependencies package.json declares).
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url);
const ALLOWED = new Set(['@runback/canonical', '@runback/replay-digest', 'diff']);

it('imports nothing from node:* and no package outside its dependencies', () => {
  const files = readdirSync(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  expect(files.length).toBeGreaterThan(4);
  const bare = files.flatMap((file) =>
    [...readFileSync(new URL(file, SRC), 'utf8').matchAll(/from '([^'.][^']*)'/g)].map(
      (m) => `${file}: ${m[1] ?? ''}`,
    ),
  );
  expect(bare.filter((entry) => !ALLOWED.has(entry.split(': ')[1] ?? ''))).toEqual([]);
  const declared = Object.keys(
    (
      JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies,
  );
  expect(new Set(declared)).toEqual(ALLOWED);
});
