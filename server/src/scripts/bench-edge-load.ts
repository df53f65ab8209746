// `npm run bench -- --suite edge-load [--viewers 2000] [--seconds 60]`: viewers play through a real
// nginx (Debian's, started here with docs/nginx-edge.conf as shipped: answers kept 20 s) in front of
// the running panel. Each viewer is a line of the bench seed with its own address (X-Forwarded-For,
// which this nginx alone trusts) and user agent; every 2 s it fetches its channel's playlist and the
// next segment it names (signed by the edge for this viewer), as an HLS player does. A counting
// proxy between nginx and the panel counts the panel's questions. Prints, for the whole run and for
// the steady part after every viewer started (the first STEADY_AFTER_S seconds: each viewer's
// admission, a write, and its first kept answer), the questions per viewer-minute, the panel's CPU
// per question (BENCH_PID: the panel's pid), the edge's p50/p99, refusals, and the viewers one panel
// core would serve.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { cpuSeconds, percentile, postgresCpuSeconds } from './bench-cpu.ts';
import { countingProxy, edgeConf, freePort, startNginx, writeHls } from './nginx-edge.ts';

type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

const PERIOD_MS = 2000;
/** Every viewer has started and its first kept answer (20 s) has run out. */
const STEADY_AFTER_S = 25;

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
    /** Fetches `p` through the edge; resolves with the body when `keep`, else drops it. */
    const get = (p: string, ip: string, ua: string, keep = false) =>
      new Promise<string>((resolve) => {
        const started = performance.now();
        const req = http.get({ host: '127.0.0.1', port: edgePort, path: p, agent, headers: { 'user-agent': ua, 'x-forwarded-for': ip } }, (res) => {
          const parts: Buffer[] = [];
          if (keep) res.on('data', (c: Buffer) => parts.push(c));
          else res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - started);
            statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
            resolve(res.statusCode === 200 ? Buffer.concat(parts).toString() : '');
          });
        });
        req.on('error', () => {
          errors++;
          resolve('');
        });
      });
    const endAt = Date.now() + o.seconds * 1000;
    const mark = () => ({ at: Date.now(), cpu: cpuSeconds(process.env.BENCH_PID), pgCpu: postgresCpuSeconds(), calls: proxy.authCalls(), requests: latencies.length });
    const begin = mark();
    let steady: ReturnType<typeof mark> | undefined;
    const steadyTimer = setTimeout(() => {
      steady = mark();
    }, STEADY_AFTER_S * 1000);
    await Promise.all(
      viewers.map(async (line, i) => {
        const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const ua = `EdgeLoadPlayer/${i}`;
        const channel = channels[i % channels.length];
        const playlist = `/live/${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}/${channel}.m3u8`;
        await new Promise((r) => setTimeout(r, (i * PERIOD_MS) / viewers.length));
        for (let n = 0; Date.now() < endAt; n++) {
          const tick = Date.now();
          const segments = (await get(playlist, ip, ua, true)).split('\n').filter((l) => l && !l.startsWith('#'));
          if (segments.length) {
            const next = new URL(segments[n % segments.length], `http://edge${playlist}`);
            await get(next.pathname + next.search, ip, ua);
          }
          await new Promise((r) => setTimeout(r, Math.max(0, PERIOD_MS - (Date.now() - tick))));
        }
      }),
    );
    clearTimeout(steadyTimer);
    const end = mark();
    const sorted = latencies.sort((a, b) => a - b);
    const refused = [...statuses].filter(([s]) => s !== 200).reduce((n, [, c]) => n + c, 0);
    console.log(`\nedge load: ${viewers.length} viewers, a playlist and a segment every ${PERIOD_MS / 1000} s each, ${o.seconds} s, through nginx (answers kept 20 s, segments signed)\n`);
    console.log(`requests to the edge ${latencies.length}, p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, refused ${refused}, errors ${errors}\n`);
    console.log('| part | seconds | panel questions | per viewer-minute | panel CPU ms per question | viewers per panel core | PostgreSQL CPU ms per question | viewers per core, panel and PostgreSQL |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    const row = (name: string, from: ReturnType<typeof mark>, to: ReturnType<typeof mark>) => {
      const minutes = (to.at - from.at) / 60_000;
      const calls = to.calls - from.calls;
      const perViewerMinute = calls / viewers.length / minutes;
      const cpuPerCall = to.cpu !== undefined && from.cpu !== undefined && calls ? (to.cpu - from.cpu) / calls : undefined;
      const projected = cpuPerCall ? Math.round(60 / (cpuPerCall * perViewerMinute)) : undefined;
      // PostgreSQL's processes (all of them: run the bench on a machine where nothing else uses it)
      const pgPerCall = calls ? (to.pgCpu - from.pgCpu) / calls : 0;
      const both = cpuPerCall !== undefined ? Math.round(60 / ((cpuPerCall + pgPerCall) * perViewerMinute)) : undefined;
      const ms = (v: number | undefined) => (v === undefined ? '(set BENCH_PID)' : (v * 1000).toFixed(2));
      console.log(`| ${name} | ${(minutes * 60).toFixed(0)} | ${calls} | ${perViewerMinute.toFixed(2)} | ${ms(cpuPerCall)} | ${projected ?? '-'} | ${ms(pgPerCall)} | ${both ?? '-'} |`);
    };
    row('whole run', begin, end);
    if (steady) row(`after the first ${STEADY_AFTER_S} s`, steady, end);
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
