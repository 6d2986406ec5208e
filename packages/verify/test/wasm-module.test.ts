// The WebAssembly module committed in src/fast-path/wasm/canonical-pass-module.ts is what
// wasm/canonical-pass.ts compiles to: nobody can change the one without the other, and anyone
// can rebuild the binary the verifier runs from its source.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../scripts/build-wasm.js', import.meta.url));

describe('the committed canonical-pass module', () => {
  it('is what its AssemblyScript source compiles to', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);
});
