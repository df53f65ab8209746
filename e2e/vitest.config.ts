import { defineConfig } from 'vitest/config';

// Browser specs: each file starts the real server on a fresh database and drives the system
// Chromium. Files run one after another (2 CPU cores); tests inside a file run in order.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    // the axe walk of every page takes ~40 s alone; a loaded two-core machine needs room
    testTimeout: 150_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    pool: 'forks',
  },
});
