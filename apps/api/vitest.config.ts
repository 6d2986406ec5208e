import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CI runs every package's suite at once on two cores; the multi-process test needs headroom.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
