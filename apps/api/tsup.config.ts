import { packageBuild } from '../../tsup.base.js';

// index: the app core and types; server: the Node entry; api-key: the key admin command.
export default packageBuild({
  entry: { index: 'src/index.ts', server: 'src/server.ts', 'api-key': 'src/api-key.ts' },
  dts: { entry: { index: 'src/index.ts' } },
  platform: 'node',
  splitting: true,
});
