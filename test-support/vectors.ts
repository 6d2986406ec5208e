// Locates the public test vectors shared beside the checkout (`../shared/vectors/`).
// In CI (CI=true) a missing folder is a failure, never a silent skip: the conformance
// tests are part of what CI proves.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Absolute path of the shared vectors folder, or null when it is absent outside CI. */
export function sharedVectorsDir(): string | null {
  const dir = process.env['RUNBACK_VECTORS_DIR'] ?? resolve(repoRoot, '..', 'shared', 'vectors');
  if (existsSync(dir)) return dir;
  if (process.env['CI'] === 'true' || process.env['CI'] === '1') {
    throw new Error(
      `expected the shared test vectors at ${dir}, got nothing there (CI requires them; set RUNBACK_VECTORS_DIR to override)`,
    );
  }
  return null;
}

/** Reads a file below the shared vectors folder as UTF-8 text. */
export function readVector(dir: string, ...parts: string[]): string {
  return readFileSync(join(dir, ...parts), 'utf8');
}

/** Reads and parses a JSON file below the shared vectors folder. */
export function readVectorJson<T>(dir: string, ...parts: string[]): T {
  return JSON.parse(readVector(dir, ...parts)) as T;
}

/** The monorepo root, for tests that run built binaries. */
export const REPO_ROOT = repoRoot;
