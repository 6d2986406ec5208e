import { defineConfig } from 'tsup';

export default defineConfig({
  // index: the library surface (runCli, errors, the inspect summary); bin: the `runback`
  // executable. Commands are loaded with dynamic import(), and splitting turns each into its
  // own chunk, so `runback verify` never loads keygen or sign code.
  entry: { index: 'src/index.ts', bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'es2022',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  splitting: true,
  removeNodeProtocol: false,
});
