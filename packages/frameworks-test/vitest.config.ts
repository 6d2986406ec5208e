import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test records and replays real framework agents in child processes, on a shared
    // two-core CI machine.
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
