import { packageBuild } from '../../tsup.base.js';

export default packageBuild({
  entry: { index: 'src/index.ts', 'cli/index': 'src/cli/index.ts', bin: 'src/bin.ts' },
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', 'cli/index': 'src/cli/index.ts' } },
  splitting: true,
});
