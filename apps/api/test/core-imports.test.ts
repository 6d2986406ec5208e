// The app core (src/app.ts and everything it imports) is web-standard: no node:* module, no
// database driver, logger or metrics library, and nothing from the Node entry.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const NODE_ONLY =
  /^(node:|pg$|better-sqlite3$|pino$|prom-client$|@hono\/node-server|@runback\/cli$)/;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm)].map(
    (m) => m[1] as string,
  );
}

describe('app core', () => {
  it('imports no Node-only module, directly or through its own files', () => {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const queue = [join(SRC, 'app.ts')];
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const spec of importsOf(file)) {
        if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
        else bare.add(spec);
      }
    }
    expect(seen.size).toBeGreaterThan(10);
    expect([...seen].filter((f) => f.includes('/node/') || f.endsWith('open.ts'))).toEqual([]);
    expect([...bare].filter((s) => NODE_ONLY.test(s))).toEqual([]);
    expect(bare).toContain('@runback/verify');
  });
});
