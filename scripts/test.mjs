// `npm test`: server API tests on SQLite and on PostgreSQL, web unit tests, and browser tests
// against the built server, in three lanes side by side: the SQLite suite then the web unit tests;
// the PostgreSQL suite; the web build then the browser tests. Each suite waits on processes, the
// database and the browser much of the time, so three lanes keep both cores busy (measured: the
// browser suite alone used about one core). Each line of a lane's output carries its suite's name.
// Prints each suite's counts and duration, each failed test, then one closing line
// "N passed, N failed".
//
// `npm run test:fast` (`node scripts/test.mjs fast`): the edit-run loop: the server API tests on
// SQLite without the slow files (TEST_TIER=fast: real nginx, the compiled server, kill -9 and
// SIGTERM runs, worker processes, fuzzing, load-size runs; the list is SLOW_FILES in
// server/vitest.config.ts) beside the web unit tests. CI and a change's last check run the full
// `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2]; // optional: server-sqlite | server-postgres | web | e2e | fast
const suite = {
  'server-sqlite': { name: 'server-sqlite', ws: 'server', env: { TEST_DB: 'sqlite' } },
  'server-postgres': { name: 'server-postgres', ws: 'server', env: { TEST_DB: 'postgres' } },
  web: { name: 'web', ws: 'web', env: {} },
  e2e: { name: 'e2e', ws: 'e2e', env: {}, buildWeb: true },
};
/** The web build the browser tests serve; in the full run it opens the browser tests' lane. */
const webBuild = { name: 'web-build', step: true };
// beside the short web unit tests, the fast tier's server files take both cores
const fastSqlite = { name: 'server-sqlite-fast', ws: 'server', env: { TEST_DB: 'sqlite', TEST_TIER: 'fast' }, args: ['--maxWorkers=2'] };
/** Stages run one after another; the lanes of a stage run side by side, the suites of a lane in turn. */
const stages =
  only === 'fast'
    ? [[[fastSqlite], [suite.web]]]
    : only
      ? suite[only] && [[[suite[only]]]]
      : [[[suite['server-sqlite'], suite.web], [suite['server-postgres']], [webBuild, { ...suite.e2e, buildWeb: false }]]];
if (!stages) {
  console.error(`unknown suite ${only}: server-sqlite | server-postgres | web | e2e | fast`);
  process.exit(2);
}
const suites = stages.flat(2).filter((s) => !s.step);
const startedAll = Date.now();

/** Whether something answers TCP at 127.0.0.1:5432 within two seconds. */
function postgresAnswers() {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: 5432 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('connect', () => done(true)).on('error', () => done(false));
  });
}

// What the suites need from the machine, checked before anything runs: a missing one would
// otherwise fail deep inside a suite minutes later. `bash .ci/run` gets all three itself.
const needs = [];
if (suites.some((s) => s.ws === 'server')) {
  if (!process.env.NGINX_BIN && !['/usr/sbin/nginx', '/usr/bin/nginx'].some((p) => fs.existsSync(p))) needs.push("Debian's nginx: apt-get install -y nginx");
}
if (suites.some((s) => s.name === 'server-postgres') && !(await postgresAnswers())) {
  needs.push('PostgreSQL at 127.0.0.1:5432 (trust auth for postgres): pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start');
}
if (suites.some((s) => s.ws === 'e2e') && !fs.existsSync('/usr/bin/chromium')) needs.push("Debian's Chromium: apt-get install -y chromium");
if (needs.length > 0) {
  console.error(`The tests need ${needs.join('; and ')} (or run bash .ci/run, which gets them).`);
  process.exit(2);
}

/** Runs a command from the repository root; beside another lane, each output line starts with `[label] `. */
function runLabelled(label, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    if (label) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = '';
        from.on('data', (chunk) => {
          const lines = (rest + chunk.toString()).split('\n');
          rest = lines.pop();
          for (const line of lines) to.write(`[${label}] ${line}\n`);
        });
        from.on('end', () => rest && to.write(`[${label}] ${rest}\n`));
      }
    }
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };

/** First-load size per route of the build just made (scripts/bundle-budget.mjs): one row, each route a test. */
function checkBundleBudget() {
  const r = spawnSync('node', ['scripts/bundle-budget.mjs'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(r.stdout ?? '');
  const m = /(\d+) passed, (\d+) failed/.exec(r.stdout ?? '');
  const passed = m ? Number(m[1]) : 0;
  const failed = m ? Number(m[2]) : 1;
  totals.passed += passed;
  totals.failed += failed;
  rows.push(`bundle-budget: ${passed} passed, ${failed} failed`);
  if (r.status !== 0) exitCode = 1;
}
/** The failed tests of a vitest JSON report as "file > name: first line of the error", so the
 * closing summary (the part of a long CI log that survives) says what to look at. */
function failedTests(report) {
  const failed = [];
  for (const file of report.testResults ?? []) {
    const rel = path.relative(root, file.name ?? '');
    const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of tests) failed.push(`${rel} > ${t.fullName ?? t.title}: ${firstLine(t.failureMessages?.[0])}`);
    // a file that failed outside any test (import error, hook timeout)
    if (tests.length === 0 && file.status === 'failed') failed.push(`${rel}: ${firstLine(file.message)}`);
  }
  return failed;
}
const firstLine = (text) => (text ?? '').split('\n', 1)[0].slice(0, 300);

const rows = [];
let exitCode = 0;

/** One suite: its preparation, vitest with a JSON report, its row in the summary. */
async function runSuite(s, label) {
  if ((s.step || s.buildWeb) && (await runLabelled(label, 'npm', ['run', 'build', '-w', 'web'])) !== 0) {
    exitCode = 1;
    rows.push('web build failed');
    return;
  }
  if (s.step) return;
  if (s.ws === 'e2e') checkBundleBudget();
  const out = path.join(os.tmpdir(), `panel-vitest-${s.name}-${process.pid}.json`);
  const started = Date.now();
  const code = await runLabelled(label, 'npx', ['vitest', 'run', '--root', s.ws, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...(s.args ?? [])], s.env);
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  let r = { numPassedTests: 0, numFailedTests: code === 0 ? 0 : 1, numPendingTests: 0 };
  if (fs.existsSync(out)) r = JSON.parse(fs.readFileSync(out, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests;
  rows.push(`${s.name}: ${r.numPassedTests} passed, ${r.numFailedTests} failed (${secs}s)`);
  for (const f of failedTests(r)) rows.push(`  failed: ${f}`);
  if (code !== 0) exitCode = code;
}

for (const lanes of stages) {
  const sideBySide = lanes.length > 1;
  await Promise.all(
    lanes.map(async (lane) => {
      for (const s of lane) {
        // a failed web build leaves nothing for the browser tests to open
        if (s.step || !rows.includes('web build failed')) await runSuite(s, sideBySide ? s.name : undefined);
      }
    }),
  );
}
// the closing summary: each suite's counts and duration, then the total wall time
console.log(`\n${rows.join('\n')}`);
console.log(`total: ${((Date.now() - startedAll) / 1000).toFixed(1)}s`);
if (exitCode !== 0 && totals.failed === 0) totals.failed = 1;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
