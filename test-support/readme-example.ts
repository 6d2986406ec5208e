// Runs a package README's ```js example as written, against the built package: the example is
// written next to the calling test (so the package's own name resolves to it) and imported.
// Each `expr; // value` line is a claim: the test compares `expr` with the JSON `value`.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface ReadmeRun {
  /** What each claim line states, as JSON values. */
  readonly expected: readonly unknown[];
  /** What each claim's expression evaluated to. */
  readonly actual: readonly unknown[];
}

export async function runReadmeExample(readme: URL, beside: URL | string): Promise<ReadmeRun> {
  const text = readFileSync(readme, 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(text)?.[1];
  if (code === undefined) throw new Error(`expected a js example in ${readme.pathname}, got none`);
  const claims = [...code.matchAll(/^(\S.*?); \/\/ (.+)$/gm)].map(
    (m) => [m[1] ?? '', m[2] ?? 'null'] as const,
  );
  if (claims.length === 0)
    throw new Error('expected at least one `expr; // value` line in the example, got none');
  const file = new URL(`./readme-example-${process.pid}.mjs`, beside);
  writeFileSync(
    file,
    `${code}\nexport const claims = [${claims.map(([expr]) => expr).join(', ')}];\n`,
  );
  try {
    const module = (await import(file.href)) as { claims: unknown[] };
    return {
      expected: claims.map(([, want]) => JSON.parse(want) as unknown),
      actual: module.claims,
    };
  } finally {
    rmSync(file, { force: true });
  }
}
