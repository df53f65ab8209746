// `npm run bench`: drives a running server (BENCH_URL, default http://127.0.0.1:3000) seeded with
// `npm run seed:bench`, with autocannon at 16 connections, and prints one markdown row per case.
// Admin password: ADMIN_PASSWORD. Options: --seconds N (default 5), --connections N (default 16),
// --only TEXT (cases whose name has it), --suite api|edge|writes|matrix|dashboard|reminders|edge-load|all (default all = api +
// edge; writes changes the database, so it runs only when asked). The edge suite (player API,
// playlists, /gateway/auth) reports the server's peak memory when BENCH_PID names its process.
//
// DATABASE_URL must name the server's database (as the server was started, e.g. sqlite:/abs/path or
// postgres://...): the api suite then prints beside each case its floor, a bare Fastify server
// (src/scripts/floor.ts, started here as a child process on FLOOR_PORT, default 3399) replaying the
// exact statements the product sends for that case (captured from the product's services with
// captureQueries, session check included) on the raw driver, product and floor measured
// alternately in the same run. Without DATABASE_URL the floor columns stay empty.
//
// --suite writes (needs DATABASE_URL): credit spends through the API, --spends N (default 4000) at
// --connections, each run after as many spends not counted (a warm-up, product and floor alike): line creations by a fresh reseller the admin creates with enough credits, then
// credit transfers by a fresh master to 10 fresh resellers of its own, each request with its own
// Idempotency-Key; after each run, exactness (balance = initial - debits = ledger sum) is checked
// in the database, and BENCH_PID (the server's process) gives its CPU time per spend. Beside each, the raw-driver floor of the same transaction (the statements captured
// from the product's service): better-sqlite3 one transaction per spend, or pg at the same
// concurrency. Run it on a copy of the bench database: it adds resellers, lines and ledger rows.
//
// --suite matrix (src/scripts/bench-matrix.ts): every filter x sort x page combination of every
// list route of the OpenAPI document, as the admin, bench_master1 and a small reseller:
// --matrix-requests N (default 32) per combination at --connections (at most --matrix-seconds,
// default 5), --route /api/users, --limit N (a fixed sample), --out FILE (JSON), --skip-floor.
//
// --suite reminders (src/scripts/bench-reminders.ts; needs DATABASE_URL, and the server started with
// OUTBOUND_ALLOW_NETWORKS=127.0.0.1/32 REMINDERS_TICK_SECONDS=2): one reminder tick with
// --accounts N (default 500) x --per-account N (default 20) WhatsApp messages due, through an
// Evolution API stand-in; time to drain, exactly-once, and the p50/p99 of other requests sent at
// --probe-rate N/s (default 20) before (--baseline-seconds, default 20), during and after
// (--after-seconds, default 10); --gateway-delay-ms N: the stand-in answers after N ms. Changes the
// database (expiries, settings, messages).
//
// --suite edge-load (src/scripts/bench-edge-load.ts): --viewers N (default 2000) play through a real
// nginx running docs/nginx-edge.conf for --seconds; BENCH_PID (the panel's pid) adds its CPU per question.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { CompiledQuery } from 'kysely';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/connection.ts';
import { captureQueries } from '../db/plans.ts';
import type { Deps } from '../deps.ts';
import type { AuthUser } from '../domain/auth-user.ts';
import { authenticate } from '../modules/auth/service.ts';
import { PLAN_CASES } from './plan-cases.ts';
import { matrixSuite } from './bench-matrix.ts';
import { writesSuite } from './bench-writes.ts';
import { dashboardSuite } from './bench-dashboard.ts';
import { edgeLoadSuite } from './bench-edge-load.ts';
import { remindersSuite } from './bench-reminders.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    only: { type: 'string' },
    suite: { type: 'string', default: 'all' },
    viewers: { type: 'string' },
    spends: { type: 'string', default: '4000' },
    rate: { type: 'string', default: '50' },
    'matrix-requests': { type: 'string', default: '32' },
    'matrix-seconds': { type: 'string', default: '5' },
    'matrix-by-number': { type: 'boolean', default: false },
    route: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string' },
    'skip-floor': { type: 'boolean', default: false },
    accounts: { type: 'string', default: '500' },
    'per-account': { type: 'string', default: '20' },
    'probe-rate': { type: 'string', default: '20' },
    'baseline-seconds': { type: 'string', default: '20' },
    'after-seconds': { type: 'string', default: '10' },
    'week-share': { type: 'string', default: '0.10' },
    timeout: { type: 'string', default: '600' },
    'gateway-delay-ms': { type: 'string', default: '0' },
  },
});
const base = process.env.BENCH_URL ?? 'http://127.0.0.1:3000';
const databaseUrl = process.env.DATABASE_URL;

async function signIn(username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (!res.ok) throw new Error(`sign-in ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

const admin = await signIn(process.env.ADMIN_USERNAME ?? 'admin', process.env.ADMIN_PASSWORD ?? '');
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);

/** [as, name, path, the plan case (plan-cases.ts) that runs the same service call, for the floor] */
const cases: [string, string, string, string?][] = [
  ['admin', 'users first page', '/api/users', 'users first page'],
  ['admin', 'users page 1000', '/api/users?page=1000', 'users page 1000'],
  ['admin', 'users status=1 (active)', '/api/users?status=1', 'users status=1 (active)'],
  ['admin', 'users status=3 (expired)', '/api/users?status=3', 'users status=3 (expired)'],
  ['admin', 'users status=0 (blocked)', '/api/users?status=0', 'users status=0 (blocked)'],
  ['admin', 'users type_user=trial', '/api/users?type_user=trial', 'users type_user=trial'],
  ['admin', 'users created range', `/api/users?created=${monthAgo},${today}`, 'users created range'],
  ['admin', 'users reseller=bench_res500', '/api/users?reseller=bench_res500', 'users reseller=<one reseller>'],
  ['admin', 'users id=4242', '/api/users?id=4242', 'users id=4242'],
  ['admin', 'users username prefix', '/api/users?username=b3f', 'users username prefix'],
  ['admin', 'users text_search', '/api/users?text_search=indicado', 'users text_search'],
  ['admin', 'users sort exp_date', '/api/users?order_by=exp_date,asc', 'users sort exp_date asc'],
  ['admin', 'expiring', '/api/users/expiring', 'expiring'],
  ['admin', 'dashboard', '/api/dashboard'],
  ['admin', 'logs', '/api/logs', 'logs'],
  ['admin', 'logs last 7 days', `/api/logs?dates=${Date.now() - 7 * 86_400_000},${Date.now()}`, 'logs last 7 days'],
  ['admin', 'logs action=user_renew', '/api/logs?actions=user_renew', 'logs action=user_renew'],
  ['master', 'users first page', '/api/users', 'users first page'],
  ['master', 'users page 1000', '/api/users?page=1000', 'users page 1000'],
  ['master', 'users status=1', '/api/users?status=1', 'users status=1'],
  ['master', 'users sort exp_date', '/api/users?order_by=exp_date,asc', 'users sort exp_date asc'],
  ['master', 'users text_search', '/api/users?text_search=indicado', 'users text_search'],
  ['master', 'expiring', '/api/users/expiring', 'expiring'],
  ['master', 'dashboard', '/api/dashboard'],
  ['master', 'resellers list', '/api/resellers', 'resellers list'],
  ['master', 'logs', '/api/logs', 'logs'],
  ['master', 'logs last 7 days', `/api/logs?dates=${Date.now() - 7 * 86_400_000},${Date.now()}`, 'logs last 7 days'],
  // Deep pages by number (OFFSET) and as the pager reaches them: `after=@` is the previous page's
  // meta.next (cursorPath), a keyset seek (db/paginate.ts).
  // Reports over a year of kept counts (the panel's days: Sao Paulo unless PANEL_TIME_ZONE).
  ['admin', 'reports sales, a year by day', `/api/reports/sales?from=${yearAgo}&to=${today}&bucket=day`],
  ['admin', 'reports sales, a year by month', `/api/reports/sales?from=${yearAgo}&to=${today}&bucket=month`],
  ['admin', 'reports top resellers, a year', `/api/reports/top-resellers?from=${yearAgo}&to=${today}`],
  ['master', 'reports sales, a year by day', `/api/reports/sales?from=${yearAgo}&to=${today}&bucket=day`],
  ['master', 'reports sales, a year by month', `/api/reports/sales?from=${yearAgo}&to=${today}&bucket=month`],
  ['master', 'reports top resellers, a year', `/api/reports/top-resellers?from=${yearAgo}&to=${today}`],
  ['admin', 'users status=1 by username desc, per 100, page 1', '/api/users?status=1&per=100&order_by=username,desc'],
  ['admin', 'users status=1 by username desc, per 100, page 500', '/api/users?status=1&per=100&order_by=username,desc&page=500'],
  ['admin', 'users status=1 by username desc, per 100, page 500 by cursor', '/api/users?status=1&per=100&order_by=username,desc&page=500&after=@'],
  ['admin', 'logs action=user_renew page 200', '/api/logs?actions=user_renew&page=200'],
  ['admin', 'logs action=user_renew page 200 by cursor', '/api/logs?actions=user_renew&page=200&after=@'],
];

/** `after=@` in a case's path: the previous page's `meta.next`, asked once before the case runs. */
async function cursorPath(urlPath: string, token: string): Promise<string> {
  if (!urlPath.includes('after=@')) return urlPath;
  const url = new URL(urlPath, base);
  const page = Number(url.searchParams.get('page'));
  url.searchParams.delete('after');
  url.searchParams.set('page', String(page - 1));
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const next = ((await res.json()) as { meta?: { next?: string } }).meta?.next;
  if (!next) throw new Error(`${urlPath}: no meta.next on page ${page - 1}`);
  return urlPath.replace('after=@', `after=${next}`);
}

/** Waits until the server has worked off the previous case's backlog (aborted requests still run). */
async function drain(token: string, url = base) {
  for (let i = 0; i < 120; i++) {
    const t = Date.now();
    const res = await fetch(`${url}/api/profile`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    await res?.arrayBuffer();
    if (Date.now() - t < 50) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const load = () => os.loadavg()[0].toFixed(1);

/** The statements the product sends for each case (session check first), keyed by the floor's route. */
async function captureFloorCases(database: Database, tokens: Record<string, string>) {
  const deps: Deps = { config: loadConfig(), database };
  const spied = (db: Database['db']): Deps => ({ ...deps, database: { ...database, db } });
  const actors: Record<string, AuthUser> = {};
  const sessions: Record<string, CompiledQuery[]> = {};
  for (const [who, token] of Object.entries(tokens)) {
    sessions[who] = await captureQueries(database, async (db) => {
      actors[who] = await authenticate(spied(db), token);
    });
  }
  const routes: Record<string, { sql: string; parameters: readonly unknown[] }[]> = {};
  const plain = (qs: CompiledQuery[]) => qs.map((q) => ({ sql: q.sql, parameters: q.parameters }));
  const ctx = { reseller: 'bench_res500', now: Math.floor(Date.now() / 1000) };
  for (const [i, [who, , , planName]] of cases.entries()) {
    const plan = PLAN_CASES.find((c) => c.as === who && c.name === planName);
    if (!plan) continue;
    const queries = await captureQueries(database, (db) => plan.run(spied(db), actors[who], ctx));
    routes[`/c/${i}`] = plain([...sessions[who], ...queries]);
  }
  // `/api/profile` sends the session statement only (its flags come with the session).
  routes['/session'] = plain(sessions.admin);
  return routes;
}

async function startFloor(routes: object): Promise<{ url: string; child: ChildProcess }> {
  const file = path.join(os.tmpdir(), `bench-floor-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(routes));
  const port = process.env.FLOOR_PORT ?? '3399';
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'floor.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script, file], { env: { ...process.env, PORT: port }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('floor listening') && resolve());
    child.on('exit', (code) => reject(new Error(`floor exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function measure(url: string, token?: string) {
  const r = await autocannon({ timeout: 30, url, connections: Number(values.connections), duration: Number(values.seconds), headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx + r.errors + r.timeouts };
}

if (values.suite === 'api' || values.suite === 'all') {
  const master = await signIn('bench_master1', 'bench-pass-2026');
  const tokens: Record<string, string> = { admin, master };
  let floor: { url: string; child: ChildProcess } | undefined;
  if (databaseUrl) {
    const database = openDatabase(databaseUrl);
    const routes = await captureFloorCases(database, tokens);
    await database.close();
    floor = await startFloor(routes);
  } else {
    console.log('(no DATABASE_URL: the floor columns stay empty)\n');
  }
  try {
    console.log('| as | case | product req/s | p50 ms | p99 ms | floor req/s | p50 ms | p99 ms | product/floor req/s | non-2xx+errors | load 1 min |');
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const row = async (who: string, name: string, productPath: string, floorPath?: string) => {
      if (values.only && !name.includes(values.only)) return;
      await drain(admin);
      const p = await measure(`${base}${await cursorPath(productPath, tokens[who])}`, tokens[who]);
      let f: Awaited<ReturnType<typeof measure>> | undefined;
      if (floor && floorPath) {
        await drain(admin);
        f = await measure(`${floor.url}${floorPath}`);
      }
      const ratio = f ? (p.rps / f.rps).toFixed(2) : '-';
      console.log(`| ${who} | ${name} | ${p.rps} | ${p.p50} | ${p.p99} | ${f?.rps ?? '-'} | ${f?.p50 ?? '-'} | ${f?.p99 ?? '-'} | ${ratio} | ${p.bad}${f ? ` / ${f.bad}` : ''} | ${load()} |`);
    };
    await row('admin', 'session check only (/api/profile)', '/api/profile', '/session');
    for (const [i, [who, name, urlPath, planName]] of cases.entries()) await row(who, name, urlPath, planName ? `/c/${i}` : undefined);
  } finally {
    floor?.child.kill('SIGTERM');
  }
}
if (values.suite === 'edge' || values.suite === 'all') await edgeSuite();
if (values.suite === 'edge-load') await edgeLoadSuite({ base, api, viewers: Number(values.viewers ?? 2000), seconds: Number(values.seconds) });
if (values.suite === 'dashboard') {
  const master = await signIn('bench_master1', 'bench-pass-2026');
  await dashboardSuite({ base, admin, master, connections: Number(values.connections), seconds: Number(values.seconds), rate: Number(values.rate), api });
}
if (values.suite === 'matrix') {
  await matrixSuite({
    base,
    databaseUrl,
    admin,
    signIn,
    password: 'bench-pass-2026',
    requests: Number(values['matrix-requests']),
    seconds: Number(values['matrix-seconds']),
    connections: Number(values.connections),
    route: values.route,
    limit: values.limit ? Number(values.limit) : undefined,
    out: values.out,
    floor: !values['skip-floor'],
    byNumber: values['matrix-by-number'],
  });
}
if (values.suite === 'reminders') {
  await remindersSuite({
    base,
    admin,
    signIn,
    accounts: Number(values.accounts),
    perAccount: Number(values['per-account']),
    probeRate: Number(values['probe-rate']),
    baselineSeconds: Number(values['baseline-seconds']),
    afterSeconds: Number(values['after-seconds']),
    weekShare: Number(values['week-share']),
    timeoutSeconds: Number(values.timeout),
    gatewayDelayMs: Number(values['gateway-delay-ms']),
  });
}
if (values.suite === 'writes') {
  if (!databaseUrl) throw new Error('--suite writes needs DATABASE_URL (the server database, for the raw floor and the exactness check)');
  await writesSuite({ base, databaseUrl, admin, spends: Number(values.spends), connections: Number(values.connections), api });
}

async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** The server's resident memory (MB) now, when BENCH_PID names it. */
function rssMb(): number | undefined {
  const pid = process.env.BENCH_PID;
  if (!pid) return undefined;
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : undefined;
}

/** Runs one autocannon case while sampling the server's memory; one markdown row. */
async function edgeCase(name: string, opts: autocannon.Options) {
  if (values.only && !name.includes(values.only)) return;
  await drain(admin);
  const before = rssMb();
  let peak = before ?? 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb() ?? 0);
  }, 100);
  const r = await autocannon({ timeout: 30, ...opts });
  clearInterval(sampler);
  const mb = (r.throughput.average / 1024 / 1024).toFixed(1);
  const memory = before === undefined ? '' : `${before} -> ${peak}`;
  console.log(`| ${name} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${mb} | ${r.non2xx} | ${r.errors + r.timeouts} | ${memory} |`);
}

/**
 * What players and edges send: the player API's channel list and the playlist of a line whose
 * bouquet holds every bench channel (10,000 with `seed:bench`), and /gateway/auth as an nginx edge
 * asks it, VIEWERS players each on its own line, address and user agent, one segment at a time.
 */
async function edgeSuite() {
  const lines: { username: string; password: string; system: number; is_trial: number }[] = [];
  for (let page = 1; lines.length < Number(values.viewers ?? 600) && page <= 40; page++) {
    const res = await api<{ data: typeof lines }>('GET', `/api/users?status=1&per=100&page=${page}`);
    lines.push(...res.data.filter((l) => l.system === 1 && l.is_trial === 0));
  }
  const channels = (await api<{ data: { id: number }[] }>('GET', '/api/admin/streams?kind=live&per=100')).data.map((s) => s.id);
  const total = (await api<{ meta: { total: number } }>('GET', '/api/admin/streams?kind=live')).meta.total;
  const [first] = lines;
  const credentials = `username=${encodeURIComponent(first.username)}&password=${encodeURIComponent(first.password)}`;
  const movies = (await api<{ meta: { total: number } }>('GET', '/api/admin/streams?kind=movie')).meta.total;
  console.log(`\n${total} live channels and ${movies} movies in the line's bouquet; ${lines.length} viewers for the gateway\n`);
  console.log('| case | req/s | p50 ms | p99 ms | max ms | MB/s | non-2xx | errors | server RSS MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  const seconds = Number(values.seconds);
  await edgeCase('player_api get_live_streams', { url: `${base}/player_api.php?${credentials}&action=get_live_streams`, connections: 4, duration: seconds });
  const gzip = { 'accept-encoding': 'gzip' };
  await edgeCase('player_api get_live_streams, gzip', { url: `${base}/player_api.php?${credentials}&action=get_live_streams`, connections: 16, duration: seconds, headers: gzip });
  await edgeCase('player_api get_vod_streams, gzip', { url: `${base}/player_api.php?${credentials}&action=get_vod_streams`, connections: 16, duration: seconds, headers: gzip });
  await edgeCase('get.php m3u_plus', { url: `${base}/get.php?${credentials}&type=m3u_plus&output=ts`, connections: 4, duration: seconds });
  await edgeCase('get.php m3u_plus, gzip accepted', { url: `${base}/get.php?${credentials}&type=m3u_plus&output=ts`, connections: 4, duration: seconds, headers: gzip });

  const edge = await api<{ id: number; key: string }>('POST', '/api/admin/servers', { name: `bench edge ${Date.now()}`, url: base });
  try {
    const viewers = lines.map((l, i) => ({ ...l, ip: `10.${(i >> 8) & 255}.${i & 255}.7`, ua: `BenchPlayer/${i}`, channel: channels[i % channels.length] }));
    // viewer n % V asks for its next segment
    let n = 0;
    const nextHeaders = () => {
      const v = viewers[n % viewers.length];
      const segment = Math.floor(n++ / viewers.length);
      return { 'x-edge-key': edge.key, 'x-original-uri': `/live/${v.username}/${v.password}/${v.channel}/seg${segment}.ts`, 'x-real-ip': v.ip, 'user-agent': v.ua };
    };
    const segments: autocannon.Request[] = [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...nextHeaders() } }) }];
    const url = `${base}/gateway/auth`;
    await edgeCase(`gateway/auth: ${viewers.length} new connections`, { url, connections: 8, amount: viewers.length, requests: segments });
    await pacedCase('gateway/auth at 200 req/s (open connections)', url, 200, Math.max(seconds, 10), nextHeaders);
    await edgeCase('gateway/auth flat out (open connections)', { url, connections: 16, duration: seconds, requests: segments });
  } finally {
    await api('DELETE', `/api/admin/servers/${edge.id}`);
  }
}

/**
 * Requests sent on a fixed schedule (open loop: one every 1000/rate ms whatever the answers do),
 * as edges ask. autocannon's rate limit sends each second's budget in a burst, and corrects its
 * percentiles for a 1 ms interval, which at 200 req/s reports bursts, not the server.
 */
async function pacedCase(name: string, url: string, rate: number, seconds: number, headersOf: () => Record<string, string>) {
  if (values.only && !name.includes(values.only)) return;
  await drain(admin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let lag = 0;
  const before = rssMb();
  let peak = before ?? 0;
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (i % rate === 0) peak = Math.max(peak, rssMb() ?? 0);
    const sent = performance.now();
    lag = Math.max(lag, sent - due);
    inflight.push(
      new Promise<void>((resolve) => {
        const req = http.get(url, { agent, headers: headersOf() }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - sent);
            if ((res.statusCode ?? 0) >= 300) non2xx++;
            resolve();
          });
        });
        req.on('error', () => {
          errors++;
          resolve();
        });
      }),
    );
  }
  await Promise.all(inflight);
  agent.destroy();
  const took = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  const memory = before === undefined ? '' : `${before} -> ${peak}`;
  console.log(`| ${name} | ${Math.round(latencies.length / took)} | ${at(0.5)} | ${at(0.99)} | ${latencies[latencies.length - 1].toFixed(1)} | - | ${non2xx} | ${errors} | ${memory} |`);
  console.log(`|   (sent on schedule: at most ${lag.toFixed(1)} ms late) | | | | | | | | |`);
}
