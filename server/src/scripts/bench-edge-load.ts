// `npm run bench -- --suite edge-load [--viewers 2000] [--seconds 60]`: viewers play through a real
// nginx (Debian's, started here with docs/nginx-edge.conf as shipped: answers kept 20 s) in front of
// the running panel. Each viewer is a line of the bench seed with its own address (X-Forwarded-For,
// which this nginx alone trusts) and user agent; every 2 s it fetches its channel's playlist and a
// segment, as an HLS player does. A counting proxy between nginx and the panel counts the panel's
// questions. Prints the questions per viewer-minute, the panel's CPU per question (BENCH_PID: the
// panel's pid), the edge's p50/p99, refusals, and the viewers one panel core would serve.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { countingProxy, edgeConf, freePort, startNginx, writeHls } from './nginx-edge.ts';

type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

const PERIOD_MS = 2000;

/** CPU seconds (user + system) the process `pid` has used. */
function cpuSeconds(pid: string | undefined): number | undefined {
  if (!pid) return undefined;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : Number.NaN);

export async function edgeLoadSuite(o: { base: string; api: Api; viewers: number; seconds: number }) {
  const panelPort = Number(new URL(o.base).port || 80);
  const lines: { username: string; password: string; system: number; is_trial: number; max_connections: number }[] = [];
  for (let page = 1; lines.length < o.viewers && page <= Math.ceil(o.viewers / 100) * 3; page++) {
    const res = await o.api<{ data: typeof lines }>('GET', `/api/users?status=1&per=100&page=${page}`);
    lines.push(...res.data.filter((l) => l.system === 1 && l.is_trial === 0));
  }
  const viewers = lines.slice(0, o.viewers);
  const channels = (await o.api<{ data: { id: number }[] }>('GET', '/api/admin/streams?kind=live&per=20')).data.map((s) => s.id);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-edge-load-'));
  const hls = path.join(dir, 'hls');
  for (const id of channels) writeHls(hls, id);
  const proxy = await countingProxy(panelPort);
  const edgePort = await freePort();
  const edge = await o.api<{ id: number; key: string }>('POST', '/api/admin/servers', { name: `edge load ${Date.now()}`, url: `http://127.0.0.1:${edgePort}` });
  const nginx = await startNginx(dir, edgePort, edgeConf(proxy.port, edgePort, edge.key, hls, { forwardedFor: true }), { workerConnections: 8192, accessLog: false });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  try {
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let errors = 0;
    const get = (p: string, ip: string, ua: string) =>
      new Promise<void>((resolve) => {
        const started = performance.now();
        const req = http.get({ host: '127.0.0.1', port: edgePort, path: p, agent, headers: { 'user-agent': ua, 'x-forwarded-for': ip } }, (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            resolve();
          });
        });
        req.on('error', () => {
          errors++;
          resolve();
        });
      });
    const endAt = Date.now() + o.seconds * 1000;
    const cpuBefore = cpuSeconds(process.env.BENCH_PID);
    const callsBefore = proxy.authCalls();
    const startedAt = Date.now();
    await Promise.all(
      viewers.map(async (line, i) => {
        const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const ua = `EdgeLoadPlayer/${i}`;
        const channel = channels[i % channels.length];
        const prefix = `/live/${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}/${channel}`;
        await new Promise((r) => setTimeout(r, (i * PERIOD_MS) / viewers.length));
        for (let n = 0; Date.now() < endAt; n++) {
          const tick = Date.now();
          await get(`${prefix}.m3u8`, ip, ua);
          await get(`${prefix}/seg${n % 3}.ts`, ip, ua);
          await new Promise((r) => setTimeout(r, Math.max(0, PERIOD_MS - (Date.now() - tick))));
        }
      }),
    );
    const minutes = (Date.now() - startedAt) / 60_000;
    const calls = proxy.authCalls() - callsBefore;
    const cpu = cpuSeconds(process.env.BENCH_PID);
    const sorted = latencies.sort((a, b) => a - b);
    const refused = [...statuses].filter(([s]) => s !== 200).reduce((n, [, c]) => n + c, 0);
    const perViewerMinute = calls / viewers.length / minutes;
    const cpuPerCall = cpu !== undefined && cpuBefore !== undefined && calls ? (cpu - cpuBefore) / calls : undefined;
    console.log(`\nedge load: ${viewers.length} viewers, a playlist and a segment every ${PERIOD_MS / 1000} s each, ${o.seconds} s, through nginx (answers kept 20 s)\n`);
    console.log('| requests to the edge | p50 ms | p99 ms | refused | errors | panel questions | per viewer-minute | panel CPU ms per question | viewers per panel core |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const projected = cpuPerCall ? Math.round(60 / (cpuPerCall * perViewerMinute)) : undefined;
    console.log(
      `| ${latencies.length} | ${percentile(sorted, 0.5).toFixed(1)} | ${percentile(sorted, 0.99).toFixed(1)} | ${refused} | ${errors} | ${calls} | ${perViewerMinute.toFixed(2)} | ${cpuPerCall === undefined ? '(set BENCH_PID)' : (cpuPerCall * 1000).toFixed(2)} | ${projected ?? '-'} |`,
    );
    if (refused) {
      console.log(`statuses: ${JSON.stringify(Object.fromEntries(statuses))}`);
      console.log(nginx.errorLog().split('\n').slice(-5).join('\n'));
    }
  } finally {
    await nginx.stop();
    await proxy.close();
    await o.api('DELETE', `/api/admin/servers/${edge.id}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
