// Runs a package README's ```js example as written, against the built package: the example is
// written next to the calling test (so the package's own name resolves to it) and imported.
// Each `expr; // value` line is a claim: the test compares `expr` with `value`, a JavaScript
// literal (JSON, or JS such as 'text' and { a: 1 }) evaluated in the example's own module.
// `cwd` runs the example from that folder (for examples that read or write files by name;
// vitest runs each test file in its own process, so changing directory there is safe).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export interface ReadmeRun {
  /** What each claim line states, as JSON values. */
  readonly expected: readonly unknown[];
  /** What each claim's expression evaluated to. */
  readonly actual: readonly unknown[];
}

export interface ReadmeOptions {
  /** The folder the example runs in; the process's own by default. */
  readonly cwd?: string;
}

export async function runReadmeExample(
  readme: URL,
  beside: URL | string,
  options: ReadmeOptions = {},
): Promise<ReadmeRun> {
  const text = readFileSync(readme, 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(text)?.[1];
  if (code === undefined) throw new Error(`expected a js example in ${readme.pathname}, got none`);
  // Each claim is evaluated where it stands, so a claim before a mutation sees the state
  // before it: the line becomes a push of [expr, value] onto the module's list.
  let count = 0;
  const body = code.replace(/^(\S.*?); \/\/ (.+)$/gm, (_line, expr: string, want: string) => {
    count++;
    return `__claims.push([${expr}, ${want}]);`;
  });
  if (count === 0)
    throw new Error('expected at least one `expr; // value` line in the example, got none');
  const file = new URL(`./readme-example-${process.pid}.mjs`, beside);
  writeFileSync(file, `export const __claims = [];\n${body}`);
  const home = process.cwd();
  try {
    if (options.cwd !== undefined) process.chdir(options.cwd);
    const module = (await import(file.href)) as { __claims: [unknown, unknown][] };
    return {
      expected: module.__claims.map(([, want]) => want),
      actual: module.__claims.map(([actual]) => actual),
    };
  } finally {
    process.chdir(home);
    rmSync(file, { force: true });
  }
}
