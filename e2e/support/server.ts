import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, WEB_DIST } from './paths.ts';
import { recordSecret, recordServerEnv } from './secrets.ts';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'E2e-Admin-Pass-7391';

export interface RunningServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  adminUsername: string;
  adminPassword: string;
  /** Temp folder holding the SQLite file. */
  dataDir: string;
  /** Everything the server printed so far: its log, JSON lines (for diagnostics and the log check). */
  output: () => string;
  /** SIGTERM, wait for exit (SIGKILL after 10 s), remove the temp folder. Safe to call twice. */
  stop: () => Promise<void>;
}

export interface StartServerOptions {
  /** The compiled server's main.js (see buildServer). */
  main: string;
  /** Extra environment variables (e.g. LOGIN_MAX_FAILURES). */
  env?: Record<string, string>;
  /** How long to wait for GET /api/docs/json (default 45 s). */
  readyTimeoutMs?: number;
  /** A folder where stop() writes the server's whole output (server-PORT.log), for the run's log check. */
  logDir?: string;
}

/** A free TCP port on 127.0.0.1 (listen on port 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('could not get a free port'))));
    });
  });
}

/** Throws a clear message when web/dist was not built. */
export function assertWebBuilt(): void {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(
      `The web app is not built: ${path.join(WEB_DIST, 'index.html')} is missing. ` +
        'Run `npm run build -w web` from the repository root first (the root `npm test` does it).',
    );
  }
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export interface ServerBuild {
  /** main.js in a folder of server/ of the run's own (.dist-e2e-PID) */
  main: string;
  /** Removes the build folder. */
  remove: () => void;
}

/**
 * Compiles the server once (`node build.mjs .dist-e2e-PID` in server/, what `npm start` runs), so
 * every start is plain `node main.js` instead of tsx compiling TypeScript again. The folder is this
 * process's own: builds never race another run or `npm run build -w server`.
 */
export function buildServer(): ServerBuild {
  const serverDir = path.join(REPO_ROOT, 'server');
  const name = `.dist-e2e-${process.pid}`;
  const dir = path.join(serverDir, name);
  const res = spawnSync(process.execPath, ['build.mjs', name], { cwd: serverDir, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`the server build failed:\n${res.stdout}\n${res.stderr}`);
  return { main: path.join(dir, 'main.js'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts the compiled server (`node <main>`, one process, so SIGTERM reaches the server itself) on
 * a free port with a fresh SQLite database in a temp folder and a known admin password; resolves
 * once GET /api/docs/json answers.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  assertWebBuilt();
  if (!fs.existsSync(options.main)) throw new Error(`${options.main} is missing: build the server first (buildServer).`);

  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  recordSecret('admin password', ADMIN_PASSWORD);
  recordServerEnv(options.env ?? {});
  let log = '';
  const child = spawn(process.execPath, [options.main], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'panel.db')}`,
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      // everything a server may log, every request too: the run's log check reads it (log-check.ts)
      LOG_LEVEL: 'debug',
      LOG_REQUESTS: '1',
      WEB_DIST,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, 10_000))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (options.logDir) fs.writeFileSync(path.join(options.logDir, `server-${port}.log`), log);
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 45_000);
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited early (code ${child.exitCode}, signal ${child.signalCode})`);
      }
      try {
        const res = await fetch(`${baseUrl}/api/docs/json`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('server did not answer GET /api/docs/json in time');
      await new Promise((r) => setTimeout(r, 150));
    }
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- server output ---\n${log}`);
  }

  return { baseUrl, adminUsername: ADMIN_USERNAME, adminPassword: ADMIN_PASSWORD, dataDir, output: () => log, stop };
}
