// `npm run bench`: drives a running server (BENCH_URL, default http://127.0.0.1:3000) seeded with
// `npm run seed:bench`, with autocannon at 16 connections, and prints one markdown row per case.
// Admin password: ADMIN_PASSWORD. Options: --seconds N (default 5), --connections N (default 16),
// --only TEXT (cases whose name has it), --suite api|edge|all (default all). The edge suite (player
// API, playlists, /gateway/auth) reports the server's peak memory when BENCH_PID names its process.
import fs from 'node:fs';
import http from 'node:http';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    only: { type: 'string' },
    suite: { type: 'string', default: 'all' },
    viewers: { type: 'string', default: '600' },
  },
});
const base = process.env.BENCH_URL ?? 'http://127.0.0.1:3000';

async function signIn(username: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (!res.ok) throw new Error(`sign-in ${username}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

const admin = await signIn(process.env.ADMIN_USERNAME ?? 'admin', process.env.ADMIN_PASSWORD ?? '');
const master = await signIn('bench_master1', 'bench-pass-2026');
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

const cases: [string, string, string][] = [
  ['admin', 'users first page', '/api/users'],
  ['admin', 'users page 1000', '/api/users?page=1000'],
  ['admin', 'users status=1 (active)', '/api/users?status=1'],
  ['admin', 'users status=3 (expired)', '/api/users?status=3'],
  ['admin', 'users status=0 (blocked)', '/api/users?status=0'],
  ['admin', 'users type_user=trial', '/api/users?type_user=trial'],
  ['admin', 'users created range', `/api/users?created=${monthAgo},${today}`],
  ['admin', 'users reseller=bench_res500', '/api/users?reseller=bench_res500'],
  ['admin', 'users id=4242', '/api/users?id=4242'],
  ['admin', 'users username prefix', '/api/users?username=b3f'],
  ['admin', 'users text_search', '/api/users?text_search=indicado'],
  ['admin', 'users sort exp_date', '/api/users?order_by=exp_date,asc'],
  ['admin', 'expiring', '/api/users/expiring'],
  ['admin', 'dashboard', '/api/dashboard'],
  ['admin', 'logs', '/api/logs'],
  ['admin', 'logs last 7 days', `/api/logs?dates=${Date.now() - 7 * 86_400_000},${Date.now()}`],
  ['admin', 'logs action=user_renew', '/api/logs?actions=user_renew'],
  ['master', 'users first page', '/api/users'],
  ['master', 'users page 1000', '/api/users?page=1000'],
  ['master', 'users status=1', '/api/users?status=1'],
  ['master', 'users sort exp_date', '/api/users?order_by=exp_date,asc'],
  ['master', 'users text_search', '/api/users?text_search=indicado'],
  ['master', 'expiring', '/api/users/expiring'],
  ['master', 'dashboard', '/api/dashboard'],
  ['master', 'resellers list', '/api/resellers'],
  ['master', 'logs', '/api/logs'],
  ['master', 'logs last 7 days', `/api/logs?dates=${Date.now() - 7 * 86_400_000},${Date.now()}`],
];

/** Waits until the server has worked off the previous case's backlog (aborted requests still run). */
async function drain(token: string) {
  for (let i = 0; i < 120; i++) {
    const t = Date.now();
    const res = await fetch(`${base}/api/profile`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (Date.now() - t < 50) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

if (values.suite !== 'edge') {
  console.log('| as | case | req/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const [who, name, path] of cases) {
    if (values.only && !name.includes(values.only)) continue;
    await drain(admin);
    const result = await autocannon({
      timeout: 30,
      url: `${base}${path}`,
      connections: Number(values.connections),
      duration: Number(values.seconds),
      headers: { authorization: `Bearer ${who === 'admin' ? admin : master}` },
    });
    console.log(`| ${who} | ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} | ${result.errors + result.timeouts} |`);
  }
}
if (values.suite !== 'api') await edgeSuite();

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
  for (let page = 1; lines.length < Number(values.viewers) && page <= 40; page++) {
    const res = await api<{ data: typeof lines }>('GET', `/api/users?status=1&per=100&page=${page}`);
    lines.push(...res.data.filter((l) => l.system === 1 && l.is_trial === 0));
  }
  const channels = (await api<{ data: { id: number }[] }>('GET', '/api/admin/streams?kind=live&per=100')).data.map((s) => s.id);
  const total = (await api<{ meta: { total: number } }>('GET', '/api/admin/streams?kind=live')).meta.total;
  const [first] = lines;
  const credentials = `username=${encodeURIComponent(first.username)}&password=${encodeURIComponent(first.password)}`;
  console.log(`\n${total} live channels in the line's bouquet; ${lines.length} viewers for the gateway\n`);
  console.log('| case | req/s | p50 ms | p99 ms | max ms | MB/s | non-2xx | errors | server RSS MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  const seconds = Number(values.seconds);
  await edgeCase('player_api get_live_streams', { url: `${base}/player_api.php?${credentials}&action=get_live_streams`, connections: 4, duration: seconds });
  await edgeCase('get.php m3u_plus', { url: `${base}/get.php?${credentials}&type=m3u_plus&output=ts`, connections: 4, duration: seconds });

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
