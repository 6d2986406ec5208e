import { packageBuild } from '../../tsup.base.js';

export default packageBuild({
  // index: recorder, tools, environment capture, journal and recovery. openai, anthropic, ai:
  // the integrations, each behind its own subpath so that the client packages stay optional
  // peers. preload: the module `runback record` loads with NODE_OPTIONS=--import.
  entry: {
    index: 'src/index.ts',
    openai: 'src/integrations/openai/index.ts',
    anthropic: 'src/integrations/anthropic/index.ts',
    ai: 'src/integrations/ai/index.ts',
    preload: 'src/process/preload.ts',
  },
  platform: 'node',
  dts: {
    entry: {
      index: 'src/index.ts',
      openai: 'src/integrations/openai/index.ts',
      anthropic: 'src/integrations/anthropic/index.ts',
      ai: 'src/integrations/ai/index.ts',
    },
  },
  splitting: true,
});
