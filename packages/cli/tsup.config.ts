import { packageBuild } from '../../tsup.base.js';

// index: the library surface (runCli, errors, the inspect summary); bin: the `runback`
// executable. Commands are loaded with dynamic import(), and splitting turns each into its
// own chunk, so `runback verify` never loads keygen or sign code.
export default packageBuild({
  entry: { index: 'src/index.ts', bin: 'src/bin.ts' },
  platform: 'node',
  dts: { entry: { index: 'src/index.ts' } },
  splitting: true,
});
