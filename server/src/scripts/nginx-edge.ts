import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';

// Debian's nginx started by a test or a bench (server/test/nginx-edge.test.ts, the e2e edge test,
// `npm run bench -- --suite edge-load`): its own prefix, config, pid file and logs in a temp folder,
// on a free port, in the foreground (no daemon, no master process), so it never touches a system
// nginx, its service or port 80, and ends with its caller.

export const NGINX = process.env.NGINX_BIN ?? ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

/** docs/nginx-edge.conf, the sample edge config the tests run (server and browser tests alike). */
export const SAMPLE_CONF = path.resolve(import.meta.dirname, '../../../docs/nginx-edge.conf');
/** Segments of the test's HLS stream. */
export const SEGMENTS = 3;

/** A synthetic MPEG-TS segment: 188-byte packets with the 0x47 sync byte, numbered payloads. */
export const segment = (n: number) => Buffer.concat(Array.from({ length: 20 }, (_, i) => Buffer.concat([Buffer.from([0x47, 0x40, 0x11, 0x10 | (i & 0xf)]), Buffer.alloc(184, n)])));

/** A small HLS stream for `streamId` under `root` as the sample config expects: <id>/index.m3u8 naming <id>/segN.ts. */
export function writeHls(root: string, streamId: number) {
  const dir = path.join(root, String(streamId));
  fs.mkdirSync(dir, { recursive: true });
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:2', '#EXT-X-MEDIA-SEQUENCE:0'];
  for (let n = 0; n < SEGMENTS; n++) {
    fs.writeFileSync(path.join(dir, `seg${n}.ts`), segment(n));
    lines.push('#EXTINF:2.000,', `${streamId}/seg${n}.ts`);
  }
  fs.writeFileSync(path.join(dir, 'index.m3u8'), `${lines.join('\n')}\n#EXT-X-ENDLIST\n`);
}

/**
 * docs/nginx-edge.conf with this panel, edge port, key and HLS folder; the panel's answers are kept
 * beside the HLS folder. `keepSeconds` shortens the shipped 20 s (a refusal: 1 s instead of 5), so a
 * test sees a decision take hold in seconds; `forwardedFor` makes this nginx take the client's
 * address from X-Forwarded-For (a bench's many viewers all come from 127.0.0.1).
 */
export function edgeConf(panelPort: number, edgePort: number, key: string, hlsRoot: string, opts: { keepSeconds?: number; forwardedFor?: boolean } = {}): string {
  let text = fs.readFileSync(SAMPLE_CONF, 'utf8');
  const listen = `listen 127.0.0.1:${edgePort};${opts.forwardedFor ? '\n    set_real_ip_from 127.0.0.1;\n    real_ip_header X-Forwarded-For;' : ''}`;
  const swaps: [string, string][] = [
    ['127.0.0.1:3000', `127.0.0.1:${panelPort}`],
    ['listen 80;', listen],
    ['CHANGE-ME-EDGE-KEY', key],
    ['/var/lib/panel-edge/hls', hlsRoot],
    ['/var/lib/nginx/panel-auth', path.join(path.dirname(hlsRoot), 'auth-cache')],
  ];
  if (opts.keepSeconds !== undefined) {
    swaps.push(['proxy_cache_valid 204 20s;', `proxy_cache_valid 204 ${opts.keepSeconds}s;`], ['proxy_cache_valid 403 5s;', 'proxy_cache_valid 403 1s;']);
  }
  for (const [from, to] of swaps) {
    if (!text.includes(from)) throw new Error(`docs/nginx-edge.conf does not name ${from}`);
    text = text.replaceAll(from, to);
  }
  return text;
}

/** An HTTP proxy between nginx and the panel that counts the edge's questions (/gateway/auth). */
export async function countingProxy(panelPort: number): Promise<{ port: number; authCalls(): number; close(): Promise<void> }> {
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
  return {
    port: (server.address() as AddressInfo).port,
    authCalls: () => calls,
    close: () =>
      new Promise((r) => {
        agent.destroy();
        server.close(() => r());
      }),
  };
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

export interface Nginx {
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * Starts nginx with `http` inside its http block (listening on `port`); resolves once it accepts
 * connections. A bench asks for more connections and no access log.
 */
export async function startNginx(dir: string, port: number, http: string, { workerConnections = 128, accessLog = true } = {}): Promise<Nginx> {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx; .ci/run does it)');
  const tmp = path.join(dir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const conf = path.join(dir, 'nginx.conf');
  const errorLog = path.join(dir, 'error.log');
  fs.writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${errorLog} info;
events { worker_connections ${workerConnections}; }
http {
  access_log ${accessLog ? `${dir}/access.log` : 'off'};
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  default_type application/octet-stream;
${http}
}
`,
  );
  const check = spawnSync(NGINX, ['-t', '-p', dir, '-c', conf, '-e', errorLog], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed:\n${check.stderr}`);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const up = await new Promise<boolean>((r) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        r(true);
      });
      socket.on('error', () => r(false));
    });
    if (up) break;
    if (i > 100) throw new Error(`nginx did not listen on ${port}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    errorLog: () => (fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
