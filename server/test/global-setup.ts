import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureFirstAdmin } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrations/index.ts';
import { ADMIN_PASSWORD, ENGINE, PG_ADMIN_URL } from './engine.ts';

// Once per `vitest run`, before any test file: a database migrated with the first admin (whose
// argon2 hash is the slow part) that every file's own database is copied from, and one compiled
// server for the tests that start server processes. Each file still gets a database of its own.

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL: the template database's name; SQLite: the migrated file to copy */
    migratedTemplate: string;
    /** the compiled server (server/build.mjs) the process tests start with plain node */
    serverMain: string;
  }
}

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function migrated(url: string): Promise<void> {
  const config = loadConfig({ DATABASE_URL: url, ADMIN_PASSWORD, SQLITE_READERS: '0' });
  const database = openDatabase(url, config);
  try {
    await migrate(database.db, database.dialect);
    await ensureFirstAdmin({ config, database });
  } finally {
    await database.close(); // SQLite folds its WAL into the file; PostgreSQL leaves no session on the template
  }
}

async function pgAdmin<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/** Templates of runs that were killed before their teardown (their process is gone). */
async function dropOrphanTemplates(c: pg.Client): Promise<void> {
  const { rows } = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'panel_template_%'");
  for (const { datname } of rows) {
    const pid = Number(datname.split('_')[2]);
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cleanups: (() => Promise<void> | void)[] = [];

  if (ENGINE === 'postgres') {
    const name = `panel_template_${process.pid}`;
    await pgAdmin(async (c) => {
      await dropOrphanTemplates(c);
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${name}`);
    });
    cleanups.push(() => pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined));
    await migrated(PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`));
    project.provide('migratedTemplate', name);
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-template-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'panel.db');
    await migrated(`sqlite:${file}`);
    project.provide('migratedTemplate', file);
  }

  // The same build `npm start` runs (server/build.mjs), in a folder of this run's own.
  const dist = `.dist-run-${process.pid}`;
  const built = spawnSync(process.execPath, ['build.mjs', dist], { cwd: server, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the server build failed:\n${built.stdout}\n${built.stderr}`);
  cleanups.push(() => fs.rmSync(path.join(server, dist), { recursive: true, force: true }));
  project.provide('serverMain', path.join(server, dist, 'main.js'));

  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
}
