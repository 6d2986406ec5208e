import { packageBuild } from '../../tsup.base.js';

export default packageBuild({
  // index: recording and replay. journal: crash safety, recovery and runs recorded across
  // processes. process: recording and replaying a whole program. fs: atomic writes. openai,
  // anthropic, ai: the integrations, each behind its own subpath so that the client packages
  // stay optional peers. preload: the module `runback record` loads with NODE_OPTIONS=--import.
  entry: {
    index: 'src/index.ts',
    journal: 'src/journal/index.ts',
    process: 'src/process/index.ts',
    fs: 'src/core/fs/index.ts',
    openai: 'src/integrations/openai/index.ts',
    anthropic: 'src/integrations/anthropic/index.ts',
    ai: 'src/integrations/ai/index.ts',
    preload: 'src/process/preload.ts',
  },
  platform: 'node',
  dts: {
    entry: {
      index: 'src/index.ts',
      journal: 'src/journal/index.ts',
      process: 'src/process/index.ts',
      fs: 'src/core/fs/index.ts',
      openai: 'src/integrations/openai/index.ts',
      anthropic: 'src/integrations/anthropic/index.ts',
      ai: 'src/integrations/ai/index.ts',
      // No exports: a module run for its effect, typed so `import '@runback/sdk/preload'` checks.
      preload: 'src/process/preload.ts',
    },
  },
  splitting: true,
});
