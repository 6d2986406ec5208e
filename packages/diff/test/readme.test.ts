// The README's example runs as written, against this package's sources, and every claim in
// its `// result` comments holds.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as diff from '../src/index.js';

it('runs the README example and gets the results it states', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (code === undefined) throw new Error('expected a js example in the README');
  const claims = [...code.matchAll(/^(\S.*?); \/\/ (.+)$/gm)].map(
    (m) => [m[1] ?? '', m[2] ?? 'null'] as const,
  );
  expect(claims.length).toBe(5);
  const body =
    code
      .replace(/import \{([^}]*)\} from '@runback\/diff';/, 'const {$1} = runbackDiff;')
      .replace(/^(\S.*?); \/\/ .+$/gm, '') +
    `\nreturn [${claims.map(([expr]) => expr).join(', ')}];`;
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<unknown[]>;
  const values = await new AsyncFunction('runbackDiff', body)(diff);
  expect(values).toEqual(claims.map(([, want]) => JSON.parse(want) as unknown));
});
