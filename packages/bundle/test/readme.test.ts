// The README's example runs as written, against this package's sources.
import { readFileSync } from 'node:fs';
import * as sign from '@runback/sign';
import { expect, it } from 'vitest';
import * as bundle from '../src/index.js';
import * as node from '../src/node.js';

it('runs the README example and gets the results it states', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (code === undefined) throw new Error('expected a js example in the README');
  const claims = [...code.matchAll(/^(\S.*?); \/\/ (.+)$/gm)].map(
    (m) => [m[1] ?? '', m[2] ?? 'null'] as const,
  );
  expect(claims.length).toBeGreaterThan(0);
  const body =
    code
      .replace(/import \{([^}]*)\} from '@runback\/sign';/, 'const {$1} = sign;')
      .replace(/import \{([^}]*)\} from '@runback\/bundle\/node';/, 'const {$1} = node;')
      .replace(/import \{([^}]*)\} from '@runback\/bundle';/, 'const {$1} = bundle;')
      .replace(/^(\S.*?); \/\/ .+$/gm, '') +
    `\nreturn [${claims.map(([expr]) => expr).join(', ')}];`;
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<unknown[]>;
  const values = await new AsyncFunction('sign', 'bundle', 'node', body)(sign, bundle, node);
  expect(values).toEqual(claims.map(([, want]) => JSON.parse(want) as unknown));
});
