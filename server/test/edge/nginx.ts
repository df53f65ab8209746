import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';

// Debian's nginx started by a test: its own prefix, config, pid file and logs in a temp folder, on
// a free port, in the foreground (no daemon, no master process), so it never touches a system
// nginx, its service or port 80, and ends with the test.

export const NGINX = process.env.NGINX_BIN ?? ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

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

/** Starts nginx with `http` inside its http block (listening on `port`); resolves once it accepts connections. */
export async function startNginx(dir: string, port: number, http: string): Promise<Nginx> {
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
events { worker_connections 128; }
http {
  access_log ${dir}/access.log;
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
