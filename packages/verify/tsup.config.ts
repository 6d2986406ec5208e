import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'cli/index': 'src/cli/index.ts', bin: 'src/bin.ts' },
  format: ['esm'],
  target: 'es2022',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', 'cli/index': 'src/cli/index.ts' } },
  sourcemap: true,
  clean: true,
  splitting: true,
  removeNodeProtocol: false,
});
