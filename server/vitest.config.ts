import { defineConfig } from 'vitest/config';

/**
 * Test tiers (TEST_TIER):
 * - unset: the full suite `npm test` and CI run: every file under test/ except test/perf/.
 * - fast: `npm run test:fast`, the edit-run loop: the full suite minus the files below, which
 *   start real processes (nginx, the compiled server, kill -9 and SIGTERM runs, worker
 *   processes, `npm` child processes) or run at load-test size. Within files that stay, a test
 *   at load-test size skips itself with `{ skip: FAST_TIER }` (test/helpers.ts).
 *   A new file that takes more than a few seconds on SQLite belongs in this list.
 * - perf: test/perf/ only, what the bench command runs: checks of how the server does its work
 *   (statement counts, query plans, latency and throughput under load) rather than what it
 *   answers. A bound on elapsed time belongs here, run alone where timings mean something; the
 *   other tiers assert answers, counts, order and events.
 */
export const SLOW_FILES = [
  'test/nginx-edge.test.ts', // real nginx in front of the server
  'test/nginx-configs.test.ts', // nginx -t on the shipped configs
  'test/nginx-panel-lb.test.ts', // two compiled servers behind nginx; SIGKILL under load, a database cut
  'test/start-compiled.test.ts', // builds the server bundle and starts it
  'test/readme-first-run.test.ts', // `npm start` as the README says, in a child process
  'test/crash.test.ts', // kill -9 in the middle of writes
  'test/p2p-crash.test.ts', // kill -9 of the P2P worker
  'test/sigterm.test.ts', // graceful shutdown of a server process
  'test/workers.test.ts', // the cluster's worker processes
  'test/fuzz.test.ts', // thousands of generated requests against a server process
  'test/p2p-outbox.test.ts', // a provider outage over many changes
  'test/backup.test.ts', // `npm run backup` and pg_restore child processes
  'test/backup-schedule.test.ts', // scheduled backups, restored; a server process taking one
  'test/reminders-restart.test.ts', // kill -9 of a server process mid-send; two processes
  'test/payments-restart.test.ts', // kill -9 between a PIX notification and its renewal
  'test/webhooks-restart.test.ts', // kill -9 of a server process with a delivery in flight
  'test/start-together.test.ts', // several server processes started at once on an empty database
  'test/upgrade.test.ts', // the compiled server on the previous release's database
  'test/list-plan-matrix.test.ts', // thousands of list combinations explained (40-100 s)
];

const tier = process.env.TEST_TIER;

// TEST_DB=sqlite|postgres picks the engine; each test file gets its own fresh database.
export default defineConfig({
  test: {
    include: tier === 'perf' ? ['test/perf/**/*.test.ts'] : ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(tier === 'perf' ? [] : ['test/perf/**']), ...(tier === 'fast' ? SLOW_FILES : [])],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // once per run: the migrated template every file's database is copied from, and the compiled server
    globalSetup: ['test/global-setup.ts'],
  },
});
