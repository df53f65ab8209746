import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { type BuildAppOptions, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/connection.ts';
import type { Deps } from '../src/deps.ts';
import { inject } from 'vitest';
import { ADMIN_PASSWORD, ENGINE, PG_ADMIN_URL } from './engine.ts';

export { ADMIN_PASSWORD, ENGINE };
/** `npm run test:fast` (TEST_TIER=fast, see vitest.config.ts): tests at load-test size skip themselves. */
export const FAST_TIER = process.env.TEST_TIER === 'fast';

/**
 * The action-log rows a subtree sees, straight from the table, newest first: those whose reseller
 * or target reseller is one of `ids` (the scope rule the log's own queries must match).
 */
export async function logIdsInScope(db: Database['db'], ids: number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('logs')
    .select('id')
    .where((eb) => eb.or([eb('reseller_id', 'in', ids), eb('target_reseller_id', 'in', ids)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => Number(r.id));
}

export interface TestContext {
  app: FastifyInstance;
  deps: Deps;
  database: Database;
  /** signs in and returns the bearer token */
  login(username: string, password?: string): Promise<string>;
  /** app.inject with a bearer token */
  call(token: string | null, opts: InjectOptions): Promise<import('light-my-request').Response>;
  close(): Promise<void>;
}

/**
 * A database of the test's own, copied from the run's migrated template (test/global-setup.ts):
 * every migration applied and the first admin (`admin`, ADMIN_PASSWORD) created.
 */
export async function migratedDatabase(prefix = 'panel_test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = inject('migratedTemplate');
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  if (ENGINE === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
    const drop = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      // The pool's backends may still be closing: dropping WITH (FORCE) then kills them, which
      // surfaces in the test as an uncaught pg error. So wait (briefly) until they are gone.
      for (let waited = 0; waited < 2000; waited += 20) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
    return { url, drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix.replaceAll('_', '-')}-`));
  const file = path.join(dir, 'panel.db');
  fs.copyFileSync(template, file);
  return { url: `sqlite:${file}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh database (a copy of the migrated template) with the app on top. */
export async function createTestContext(overrides: Partial<Config> = {}, options: { logger?: BuildAppOptions['logger'] } = {}): Promise<TestContext> {
  const { url, drop: dropDb } = await migratedDatabase();
  // SQLITE_READERS=0 runs a suite with SQLite's reads on the main connection (to compare).
  const config = { ...loadConfig({ DATABASE_URL: url, ADMIN_PASSWORD, SQLITE_READERS: process.env.SQLITE_READERS }), ...overrides };
  const database = openDatabase(url, config);
  const deps = { config, database };
  // TEST_LOG=1 shows the server's log (e.g. the error behind a 500 the fuzzer found).
  // A test may pass its own logger (lib/logger.ts createLogger into a stream) to read the log.
  const app = await buildApp(deps, { logger: options.logger ?? (process.env.TEST_LOG === '1' ? undefined : false) });
  await app.ready();

  const call: TestContext['call'] = (token, opts) =>
    app.inject({ ...opts, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(opts.headers ?? {}) } });

  return {
    app,
    deps,
    database,
    call,
    async login(username, password = ADMIN_PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      return res.json().token as string;
    },
    async close() {
      await app.close();
      await database.close();
      await dropDb();
    },
  };
}
