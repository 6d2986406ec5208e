import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';

const version = (
  JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
const verifyVersion = (
  JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve('@runback/verify/package.json'), 'utf8'),
  ) as { version: string }
).version;

// The built page's Content-Security-Policy: nothing but this origin's own files; no inline
// script or style, no plugins, no framing of forms. `connect-src https:` lets `?url=` read a
// record from another HTTPS host (read only: the page never sends a record anywhere).
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' https:",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

// @runback/bundle reads tar archives with tar-stream, whose streams (streamx) take their
// EventEmitter from events-universal: Node's `events` by default, the dependency-free
// bare-events in other runtimes. The page is such a runtime, so `events` imported there
// resolves to bare-events, found through the same chain of packages (never a Node built-in).
function resolveFrom(from: string, chain: readonly string[]): string {
  let require = createRequire(from);
  let resolved = from;
  for (const name of chain) {
    resolved = require.resolve(name);
    require = createRequire(resolved);
  }
  return resolved;
}
const bareEvents = resolveFrom(import.meta.url, [
  '@runback/bundle',
  'tar-stream',
  'streamx',
  'events-universal',
  'bare-events',
]);

/** Adds the CSP meta tag to the built page only: the dev server needs inline scripts. */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'runback-csp',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace(
        '<meta charset="utf-8" />',
        `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`,
      ),
  };
}

export default defineConfig({
  base: './',
  plugins: [contentSecurityPolicy()],
  define: {
    __WEB_VERSION__: JSON.stringify(version),
    __VERIFY_VERSION__: JSON.stringify(verifyVersion),
  },
  resolve: { alias: [{ find: /^events$/, replacement: bareEvents }] },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // One script per entry: no inline data URLs, so the CSP needs no 'unsafe-inline'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  preview: { host: '127.0.0.1' },
});
