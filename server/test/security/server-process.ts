import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { ENGINE } from '../helpers.ts';

// The real server as a child process (what `npm start` runs), on a database of its own, so a
// test can SIGKILL and SIGTERM it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty database for the engine under test (a temp SQLite file, or a new PostgreSQL database). */
export async function freshDatabase(prefix: string): Promise<FreshDatabase> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  if (ENGINE === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return {
      url: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
      async drop() {
        const c = new pg.Client({ connectionString: PG_ADMIN_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  return { url: `sqlite:${path.join(dir, 'panel.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export class ServerProcess {
  child: ChildProcess | undefined;
  /** the last lines the server printed, for failure messages */
  output: string[] = [];
  readonly base: string;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    /** node's arguments: by default the run's compiled server (test/global-setup.ts), what `npm start` runs */
    private readonly args: string[] = [inject('serverMain')],
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  /** Starts the server and resolves once it answers HTTP. */
  async start(timeoutMs = 60_000): Promise<void> {
    const child = spawn(process.execPath, this.args, {
      cwd: root,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(this.port), LOG_LEVEL: 'warn', WEB_DIST: path.join(root, 'no-web-dist'), ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString().split('\n').filter(Boolean));
      if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited during start-up:\n${this.output.join('\n')}`);
      try {
        await fetch(`${this.base}/api/profile`, { signal: AbortSignal.timeout(1000) });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`server did not answer within ${timeoutMs} ms:\n${this.output.join('\n')}`);
  }

  /** Sends `signal` and resolves when the process is gone. */
  async stop(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return { code: child?.exitCode ?? null, signal: child?.signalCode ?? null };
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, sig) => resolve({ code, signal: sig })),
    );
    child.kill(signal);
    return exited;
  }
}

/**
 * The compiled server (`node build.mjs DIR`, what `npm start` runs) in a folder of this test
 * process's own, server/.dist-test-PID, so builds never race each other or `npm start`.
 */
export function buildServer(): { dir: string; main: string; ms: number; remove(): void } {
  const server = path.join(root, 'server');
  const name = `.dist-test-${process.pid}`;
  const dir = path.join(server, name);
  const started = performance.now();
  const res = spawnSync(process.execPath, ['build.mjs', name], { cwd: server, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`the server build failed:\n${res.stdout}\n${res.stderr}`);
  return { dir, main: path.join(dir, 'main.js'), ms: Math.round(performance.now() - started), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
