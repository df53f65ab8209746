// `npm run bench`: drives a running server (BENCH_URL, default http://127.0.0.1:3000) seeded with
// `npm run seed:bench`, with autocannon at 16 connections, and prints one markdown row per case.
// Admin password: ADMIN_PASSWORD. Options: --seconds N (default 5), --connections N (default 16).
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '16' }, only: { type: 'string' } } });
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
