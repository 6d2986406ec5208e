// The one tsup configuration every published package builds with; each package's
// tsup.config.ts names only its entries (and, where it ships executables, platform 'node').
//
// Nothing from another package is ever inlined: every bare import stays an import, so
// `@runback/*` code reaches a user through its own package and its declared dependency, and
// a fix to one package reaches every dependant without a rebuild. scripts/check-dist.js
// fails the test command if a dist ever holds another package's sources.
import { defineConfig, type Options } from 'tsup';

export type PackageBuild = Pick<Options, 'entry' | 'dts' | 'splitting' | 'platform'>;

export function packageBuild(build: PackageBuild) {
  return defineConfig({
    format: ['esm'],
    target: 'es2022',
    sourcemap: true,
    clean: true,
    splitting: false,
    dts: true,
    removeNodeProtocol: false,
    ...build,
    // Workspace packages are matched by name as well, because a devDependency (which tsup
    // would otherwise inline) can be imported by mistake; skipNodeModulesBundle keeps every
    // other bare import external too.
    external: [/^@runback\//],
    skipNodeModulesBundle: true,
  });
}
