// `npm run bench -- --suite dashboard`: GET /api/dashboard as the admin and as bench_master1 (a
// top-level master with ~10 % of the lines) at --connections, while bench_master1 creates lines at
// --rate per second through the API. Each creation moves both callers' cache stamps, so most views
// recompute. Needs the seed's bench_master1; the admin tops its credits up first. Changes the
// database (adds lines), so it runs only when asked.
import os from 'node:os';
import autocannon from 'autocannon';

type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

export async function dashboardSuite(o: { base: string; admin: string; master: string; connections: number; seconds: number; rate: number; api: Api }) {
  const found = await o.api<{ data: { id: number; username: string }[] }>('GET', '/api/resellers?username=bench_master1&per=100');
  const masterId = found.data.find((r) => r.username === 'bench_master1')?.id;
  if (!masterId) throw new Error('bench_master1 not found (seed with npm run seed:bench)');
  const packages = (await o.api<{ data: { id: number; is_trial: number; max_connections: number; official_credits: number }[] }>('GET', '/api/admin/packages?per=100')).data;
  const pkg = packages.find((p) => p.is_trial === 0 && p.max_connections < 2 && p.official_credits > 0);
  if (!pkg) throw new Error('no one-screen paid package to create lines with');
  const creations = Math.ceil(o.rate * o.seconds * 2.5);
  await o.api('POST', `/api/resellers/${masterId}/credits`, { value: creations * pkg.official_credits });

  console.log(`\ndashboard while bench_master1 creates ${o.rate} lines/s (${o.connections} connections, ${o.seconds} s each)\n`);
  console.log('| as | writes | req/s | p50 ms | p99 ms | non-2xx+errors | lines created | load 1 min |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const [who, token] of [['admin', o.admin], ['master', o.master]] as const) {
    for (const writing of [false, true]) {
      let created = 0;
      let failed = 0;
      let stop = false;
      // Open loop: each creation is sent at its time, not after the previous one answered, so a
      // busy server still gets --rate creations a second.
      const writer = (async () => {
        const started = Date.now();
        const sent: Promise<void>[] = [];
        for (let i = 1; writing && !stop; i++) {
          await new Promise((r) => setTimeout(r, Math.max(0, started + (i * 1000) / o.rate - Date.now())));
          if (stop) break;
          sent.push(
            fetch(`${o.base}/api/users`, { method: 'POST', headers: { authorization: `Bearer ${o.master}`, 'content-type': 'application/json' }, body: JSON.stringify({ package_id: pkg.id }) })
              .then(async (res) => {
                await res.arrayBuffer();
                if (res.ok) created++;
                else failed++;
              })
              .catch(() => {
                failed++;
              }),
          );
        }
        await Promise.all(sent);
      })();
      const r = await autocannon({ timeout: 30, url: `${o.base}/api/dashboard`, connections: o.connections, duration: o.seconds, headers: { authorization: `Bearer ${token}` } });
      stop = true;
      await writer;
      const bad = r.non2xx + r.errors + r.timeouts + failed;
      console.log(`| ${who} | ${writing ? `${o.rate}/s` : 'none'} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${bad} | ${created} | ${os.loadavg()[0].toFixed(1)} |`);
    }
  }
}
