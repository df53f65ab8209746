// `npm run bench -- --suite edge-load [--viewers 2000] [--seconds 60]`: viewers play through a real
// nginx (Debian's, started here with docs/nginx-edge.conf as shipped: answers kept 20 s) in front of
// the running panel. Each viewer is a line of the bench seed with its own address (X-Forwarded-For,
// which this nginx alone trusts) and user agent; every 2 s it fetches its channel's playlist and a
// segment, as an HLS player does. A counting proxy between nginx and the panel counts the panel's
// questions. Prints the questions per viewer-minute, the panel's CPU per question (BENCH_PID: the
// panel's pid), the edge's p50/p99, refusals, and the viewers one panel core would serve.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>;

const SAMPLE_CONF = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/nginx-edge.conf');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const PERIOD_MS = 2000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** CPU seconds (user + system) the process `pid` has used. */
function cpuSeconds(pid: string | undefined): number | undefined {
  if (!pid) return undefined;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function writeHls(root: string, streamId: number) {
  const dir = path.join(root, String(streamId));
  fs.mkdirSync(dir, { recursive: true });
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0'];
  for (let n = 0; n < 3; n++) {
    fs.writeFileSync(path.join(dir, `seg${n}.ts`), Buffer.alloc(188 * 20, n));
    lines.push('#EXTINF:2.000,', `${streamId}/seg${n}.ts`);
  }
  fs.writeFileSync(path.join(dir, 'index.m3u8'), `${lines.join('\n')}\n`);
}

function startNginx(dir: string, edgePort: number, panelPort: number, key: string, hls: string): ChildProcess {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx)');
  let edge = fs.readFileSync(SAMPLE_CONF, 'utf8');
  for (const [from, to] of [
    ['127.0.0.1:3000', `127.0.0.1:${panelPort}`],
    ['listen 80;', `listen 127.0.0.1:${edgePort} backlog=4096;\n    set_real_ip_from 127.0.0.1;\n    real_ip_header X-Forwarded-For;`],
    ['CHANGE-ME-EDGE-KEY', key],
    ['/var/lib/panel-edge/hls', hls],
    ['/var/cache/nginx/panel-auth', path.join(dir, 'auth-cache')],
  ]) {
    if (!edge.includes(from)) throw new Error(`docs/nginx-edge.conf does not name ${from}`);
    edge = edge.replaceAll(from, to);
  }
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;\nmaster_process off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 8192; }\nhttp {\n  access_log off;\n  client_body_temp_path ${tmp}/body;\n  proxy_temp_path ${tmp}/proxy;\n  fastcgi_temp_path ${tmp}/fastcgi;\n  uwsgi_temp_path ${tmp}/uwsgi;\n  scgi_temp_path ${tmp}/scgi;\n${edge}\n}\n`,
  );
  const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', conf, '-e', `${dir}/error.log`], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`);
  return spawn(NGINX, ['-p', dir, '-c', conf, '-e', `${dir}/error.log`], { stdio: 'ignore' });
}

/** Forwards to the panel and counts /gateway/auth. */
async function countingProxy(panelPort: number) {
  let calls = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/gateway/auth')) calls++;
    const upstream = http.request({ host: '127.0.0.1', port: panelPort, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, calls: () => calls, close: () => new Promise((r) => server.close(r)) };
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
  const nginx = startNginx(dir, edgePort, proxy.port, edge.key, hls);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  try {
    await new Promise((r) => setTimeout(r, 500));
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
    const callsBefore = proxy.calls();
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
    const calls = proxy.calls() - callsBefore;
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
      console.log(fs.readFileSync(path.join(dir, 'error.log'), 'utf8').split('\n').slice(-5).join('\n'));
    }
  } finally {
    nginx.kill('SIGTERM');
    await proxy.close();
    await o.api('DELETE', `/api/admin/servers/${edge.id}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
