// The README's example runs as written, against this package's sources.
import { readFileSync } from 'node:fs';
import * as sign from '@runback/sign';
import { expect, it } from 'vitest';
import * as tlog from '../src/index.js';

it('runs the README example and gets the results it states', async () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  if (code === undefined) throw new Error('expected a js example in the README');
  const claims = [...code.matchAll(/^(\S.*?); \/\/ (.+)$/gm)].map((m) => [m[1], m[2]] as const);
  expect(claims.length).toBeGreaterThan(0);
  const body =
    code
      .replace(/import \{([^}]*)\} from '@runback\/sign';/, 'const {$1} = sign;')
      .replace(/import \{([^}]*)\} from '@runback\/tlog';/, 'const {$1} = tlog;')
      .replace(/^(\S.*?); \/\/ .+$/gm, '') +
    `\nreturn [${claims.map(([expr]) => expr).join(', ')}];`;
  const run = new Function('sign', 'tlog', body) as (s: unknown, t: unknown) => unknown[];
  const values = run(sign, tlog);
  expect(values).toEqual(claims.map(([, want]) => JSON.parse(want ?? 'null') as unknown));
});
