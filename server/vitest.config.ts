import { defineConfig } from 'vitest/config';

// TEST_DB=sqlite|postgres picks the engine; each test file gets its own fresh database.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
