// Fails the build when the static page would need Node: any import of a `node:` module or of
// a Node built-in by its bare name in the built scripts. Prints each file's gzipped size.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist', import.meta.url));

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const builtins = new Set(builtinModules.filter((m) => !m.startsWith('_')));
// Module specifiers in import/export statements, dynamic import() and require().
const specifier = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'`]([^"'`]+)["'`]/g;

const problems = [];
let total = 0;
let totalGzip = 0;
for (const file of filesUnder(dist)) {
  const bytes = readFileSync(file);
  const gz = gzipSync(bytes, { level: 9 }).length;
  total += bytes.length;
  totalGzip += gz;
  console.log(
    `${relative(dist, file).padEnd(44)} ${String(bytes.length).padStart(8)} B  gzip ${String(gz).padStart(7)} B`,
  );
  if (!/\.(m?js|html)$/.test(file)) continue;
  const text = bytes.toString('utf8');
  for (const match of text.matchAll(specifier)) {
    const name = match[1];
    if (name.startsWith('node:') || builtins.has(name) || builtins.has(name.split('/')[0])) {
      problems.push(`${relative(dist, file)}: imports ${name}`);
    }
  }
  // Any quoted `node:` specifier, however it is loaded (e.g. built at run time).
  for (const m of text.matchAll(/["'`]node:[a-z_/]+/g)) {
    problems.push(`${relative(dist, file)}: mentions ${m[0].slice(1)}`);
  }
}
console.log(
  `${'total'.padEnd(44)} ${String(total).padStart(8)} B  gzip ${String(totalGzip).padStart(7)} B`,
);
if (problems.length > 0) {
  console.error(
    `expected a bundle without Node built-ins, got ${problems.length}:\n  ${[...new Set(problems)].join('\n  ')}`,
  );
  process.exit(1);
}
