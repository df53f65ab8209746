import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, resolveDatabaseUrl } from '../src/config.ts';
import { ENGINE } from './helpers.ts';
import { type FreshDatabase, freePort, freshDatabase } from './security/server-process.ts';
import type { Complements, LinePage, SignedIn } from '../../web/src/api/types.ts';

// The README's first run, command for command: `npm start`, then `npm run seed:demo` (which npm
// runs inside server/), then signing in as the demo master over HTTP. On SQLite nothing points
// the commands at a database: PANEL_DATA_DIR only moves the repo root's data/ to a temp dir, so
// the developer's own data/panel.db is never touched. On PostgreSQL both get DATABASE_URL.

interface Run {
  child: ChildProcess;
  output: string[];
}

function npm(args: string[], env: NodeJS.ProcessEnv): Run {
  // its own process group, so the whole npm -> start.mjs -> node chain stops together
  const child = spawn('npm', args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  return { child, output };
}

function exited(run: Run): Promise<number | null> {
  if (run.child.exitCode !== null) return Promise.resolve(run.child.exitCode);
  return new Promise((resolve) => run.child.once('exit', (code) => resolve(code)));
}

function stop(run: Run): Promise<unknown> {
  if (run.child.exitCode !== null || run.child.signalCode !== null || !run.child.pid) return Promise.resolve();
  const done = new Promise((resolve) => run.child.once('exit', resolve));
  process.kill(-run.child.pid, 'SIGTERM');
  return done;
}

describe(`README first run: npm start + npm run seed:demo (${ENGINE})`, () => {
  let dataDir: string;
  let database: FreshDatabase | undefined;
  let env: NodeJS.ProcessEnv;
  let server: Run;
  let base: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-readme-'));
    const { DATABASE_URL: _ignored, ...rest } = process.env;
    env = { ...rest, PANEL_DATA_DIR: dataDir, WEB_DIST: path.join(dataDir, 'no-web-dist'), LOG_LEVEL: 'warn', ADMIN_PASSWORD: '' };
    if (ENGINE === 'postgres') {
      database = await freshDatabase('panel_readme');
      env.DATABASE_URL = database.url;
    }
    const port = await freePort();
    env.PORT = String(port);
    base = `http://127.0.0.1:${port}`;
    server = npm(['start'], env);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`npm start exited:\n${server.output.join('')}`);
      if (Date.now() > deadline) throw new Error(`npm start did not answer:\n${server.output.join('')}`);
      try {
        await fetch(`${base}/api/profile`, { signal: AbortSignal.timeout(1000) });
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }, 90_000);

  afterAll(async () => {
    if (server) await stop(server);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the first admin with a generated password, written to a file and never to the log', () => {
    const file = path.join(dataDir, 'first-admin-password');
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(fs.statSync(file).mode & 0o077, 'readable by its owner only').toBe(0);
    const output = server.output.join('');
    expect(output).toContain(`First admin created (username admin): its generated password is in ${file}`);
    expect(output).not.toContain(password);
  });

  it('seeds the database the running server uses, and the demo master signs in over HTTP', async () => {
    const seed = npm(['run', 'seed:demo'], env);
    const code = await exited(seed);
    expect(code, seed.output.join('')).toBe(0);
    expect(seed.output.join('')).toContain('Demo data added');

    const res = await fetch(`${base}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo_master', password: 'demo-panel-2026' }),
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as SignedIn;
    const lines = await fetch(`${base}/api/users?per=10`, { headers: { authorization: `Bearer ${token}` } });
    expect(lines.status).toBe(200);
    expect(((await lines.json()) as LinePage).meta.total).toBeGreaterThan(0);

    // The demo agrees with the screen limit: its 2-screen package and lines fit the limit it set.
    const complements = (await (await fetch(`${base}/api/datacomplements`, { headers: { authorization: `Bearer ${token}` } })).json()) as Complements;
    const limit = Number(complements.settings.user_limit_screen);
    expect(Math.max(...complements.packages.map((p) => p.max_connections))).toBe(limit);
    expect(limit).toBe(2);
    // the widest line, read off every page (the list offers no sort by screens)
    let widest = 0;
    for (let page = 1, pages = 1; page <= pages; page++) {
      const res = (await (await fetch(`${base}/api/users?per=100&page=${page}`, { headers: { authorization: `Bearer ${token}` } })).json()) as LinePage;
      widest = Math.max(widest, ...res.data.map((l) => l.max_connections));
      pages = res.meta.pages;
    }
    expect(widest).toBe(limit);

    if (ENGINE === 'sqlite') {
      expect(fs.existsSync(path.join(dataDir, 'panel.db'))).toBe(true);
      expect(fs.existsSync(path.join(REPO_ROOT, 'server', 'data', 'panel.db'))).toBe(false);
    }
  }, 60_000);

  it('`npm run backup` copies that same database', async () => {
    const out = path.join(dataDir, ENGINE === 'sqlite' ? 'copy.db' : 'copy.dump');
    const backup = npm(['run', 'backup', '--', '--out', out], env);
    expect(await exited(backup), backup.output.join('')).toBe(0);
    if (ENGINE === 'sqlite') {
      const copy = new SqliteDatabase(out, { readonly: true });
      expect(copy.prepare("select count(*) as n from resellers where username = 'demo_master'").get()).toEqual({ n: 1 });
      copy.close();
    } else {
      expect(fs.statSync(out).size).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe('DATABASE_URL resolution', () => {
  it('resolves a relative sqlite: path from the repo root, whatever the cwd', () => {
    expect(resolveDatabaseUrl({})).toBe(`sqlite:${path.join(REPO_ROOT, 'data', 'panel.db')}`);
    expect(resolveDatabaseUrl({ DATABASE_URL: 'sqlite:./data/panel.db' })).toBe(`sqlite:${path.join(REPO_ROOT, 'data', 'panel.db')}`);
    expect(resolveDatabaseUrl({ DATABASE_URL: 'sqlite:/srv/panel.db' })).toBe('sqlite:/srv/panel.db');
    expect(resolveDatabaseUrl({ DATABASE_URL: 'sqlite::memory:' })).toBe('sqlite::memory:');
    expect(resolveDatabaseUrl({ PANEL_DATA_DIR: '/tmp/x' })).toBe('sqlite:/tmp/x/panel.db');
    expect(resolveDatabaseUrl({ DATABASE_URL: 'postgres://u@h/db' })).toBe('postgres://u@h/db');
    expect(() => resolveDatabaseUrl({ DATABASE_URL: 'mysql://x' })).toThrow();
  });
});
