// `npm test`: server API tests on SQLite and on PostgreSQL, web unit tests, then browser
// tests against the built server. Prints each suite's counts and duration, then one closing line
// "N passed, N failed".
//
// `npm run test:fast` (`node scripts/test.mjs fast`): the edit-run loop, under 3 minutes on a
// 2-core machine: the server API tests on SQLite without the slow files (TEST_TIER=fast: real
// nginx, the compiled server, kill -9 and SIGTERM runs, worker processes, fuzzing, load-size
// runs; the list is SLOW_FILES in server/vitest.config.ts), then the web unit tests. CI and a
// change's last check run the full `npm test`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2]; // optional: server-sqlite | server-postgres | web | e2e | fast
const all = [
  { name: 'server-sqlite', ws: 'server', env: { TEST_DB: 'sqlite' } },
  { name: 'server-postgres', ws: 'server', env: { TEST_DB: 'postgres' } },
  { name: 'web', ws: 'web', env: {} },
  { name: 'e2e', ws: 'e2e', env: {}, before: () => run('npm', ['run', 'build', '-w', 'web']) },
];
const fast = [
  { name: 'server-sqlite-fast', ws: 'server', env: { TEST_DB: 'sqlite', TEST_TIER: 'fast' } },
  { name: 'web', ws: 'web', env: {} },
];
const suites = only === 'fast' ? fast : all.filter((s) => !only || s.name === only);
if (suites.length === 0) {
  console.error(`unknown suite ${only}: server-sqlite | server-postgres | web | e2e | fast`);
  process.exit(2);
}
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

function run(cmd, args, env = {}) {
  return spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
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
for (const s of suites) {
  if (s.before && s.before() !== 0) {
    exitCode = 1;
    rows.push(`${s.name}: build failed`);
    continue;
  }
  if (s.ws === 'e2e') checkBundleBudget();
  const out = path.join(os.tmpdir(), `panel-vitest-${s.name}-${process.pid}.json`);
  const started = Date.now();
  const code = run('npx', ['vitest', 'run', '--root', s.ws, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], s.env);
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
// the closing summary: each suite's counts and duration, then the total wall time
console.log(`\n${rows.join('\n')}`);
console.log(`total: ${((Date.now() - startedAll) / 1000).toFixed(1)}s`);
if (exitCode !== 0 && totals.failed === 0) totals.failed = 1;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exitCode);
