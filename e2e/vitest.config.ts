import { defineConfig } from 'vitest/config';

// Browser specs against the real server and the system Chromium. The global setup compiles the
// server, launches one Chromium and starts the shared server once per run (support/global-setup.ts).
// Files run one after another (2 CPU cores); tests inside a file run in order.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['support/global-setup.ts'],
    fileParallelism: false,
    // the axe walk of every page takes ~40 s alone; a loaded two-core machine needs room
    testTimeout: 150_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    pool: 'forks',
  },
});
