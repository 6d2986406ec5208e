import { packageBuild } from '../../tsup.base.js';

// index: the platform-neutral surface (reading and verifying bundles, building the tar);
// node: writing a gzip bundle with node:zlib.
export default packageBuild({ entry: ['src/index.ts', 'src/node.ts'] });
