// `npx runback …` would fetch the unscoped npm package "runback", which is not ours: every doc,
// recipe and help text must name a package we publish (`npx @runback/cli …` or
// `npx -p @runback/cli runback …`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mainUsage, runCli } from '../src/run-cli.js';
import { fakeIO } from './support.js';

const repo = join(import.meta.dirname, '..', '..', '..');
// npx (or a runner like it) followed by an unscoped runback name.
const UNOWNED = /\b(?:npx|pnpm dlx|yarn dlx|bunx)\s+(?:-y\s+|--yes\s+)?runback(?:-verify)?\b/;

function textFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...textFiles(path));
    else if (/\.(md|mdx|ya?ml|json|js|mjs|ts|sh|txt)$/.test(name)) found.push(path);
  }
  return found;
}

describe('package names in docs and help', () => {
  it('no README, doc, example or recipe runs an unscoped runback package through npx', () => {
    const files = [
      join(repo, 'README.md'),
      ...textFiles(join(repo, 'docs')),
      ...textFiles(join(repo, 'examples')),
      ...readdirSync(join(repo, 'packages')).map((p) => join(repo, 'packages', p, 'README.md')),
    ].filter((f) => statSync(f, { throwIfNoEntry: false })?.isFile() === true);
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          UNOWNED.test(line) ? [`${relative(repo, f)}:${i + 1}: ${line}`] : [],
        ),
    );
    expect(offenders).toEqual([]);
  });

  it('the pattern catches the unscoped forms and allows the scoped ones', () => {
    expect(UNOWNED.test('npx runback verify rec.json')).toBe(true);
    expect(UNOWNED.test('npx -y runback-verify rec.json')).toBe(true);
    expect(UNOWNED.test('npx @runback/cli verify rec.json')).toBe(false);
    expect(UNOWNED.test('npx -p @runback/cli runback replay')).toBe(false);
  });

  it('no help text of runback or its commands runs an unscoped package', async () => {
    const texts = [mainUsage()];
    for (const name of [
      'verify',
      'sign',
      'record',
      'replay',
      'recover',
      'diff',
      'inspect',
      'keygen',
      'anchor',
      'bundle',
      'report',
      'log',
      'export',
      'import',
    ]) {
      const io = fakeIO();
      expect(await runCli(['help', name], io)).toBe(0);
      texts.push(io.out());
    }
    for (const text of texts) expect(text).not.toMatch(UNOWNED);
  });
});
