import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // CI runs every package's suite at once on two cores; the crash tests spawn processes.
    testTimeout: 60_000,
  },
});
