// The README's example runs as written against the built package: it is written next to this
// test (so '@runback/bundle' resolves to this package) and imported, and each `expr; // value`
// line's value is compared.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('runs the README example and gets the results it states', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (code === undefined) throw new Error('expected a js example in the README');
  const claims = [...code.matchAll(/^(\S.*?); \/\/ (.+)$/gm)].map(
    (m) => [m[1] ?? '', m[2] ?? 'null'] as const,
  );
  expect(claims.length).toBeGreaterThan(0);
  const file = new URL(`./readme-example-${process.pid}.mjs`, import.meta.url);
  writeFileSync(
    file,
    `${code}\nexport const claims = [${claims.map(([expr]) => expr).join(', ')}];\n`,
  );
  try {
    const module = (await import(file.href)) as { claims: unknown[] };
    expect(module.claims).toEqual(claims.map(([, want]) => JSON.parse(want) as unknown));
  } finally {
    rmSync(file, { force: true });
  }
});
