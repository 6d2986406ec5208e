import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // CI runs every package's suite at once on two cores: property tests need headroom.
    testTimeout: 60_000,
  },
});
