// The package version, read from package.json at run time: src/ (tests) and dist/ (the built
// bin) both sit one level below the package root.
import { readFileSync } from 'node:fs';

/** The version in @runback/verify-cli's package.json. */
export function verifyCliVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  if (typeof pkg.version !== 'string')
    throw new Error('expected a version in @runback/verify-cli package.json');
  return pkg.version;
}
