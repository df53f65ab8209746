import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureFirstAdmin } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { hasThisBuildsMigrations, migrate } from '../src/db/migrations/index.ts';
import { PREVIOUS_RELEASE } from '../src/db/migrations/releases.ts';
import { ENGINE } from './helpers.ts';
import { ServerProcess, freePort, freshDatabase } from './security/server-process.ts';

// An upgrade: this build's compiled server starts on a database the previous release's migrations
// made (with its first admin and data), migrates it forward and serves it. The released migration
// files must be the ones that release shipped (docs/operations.md, "Upgrades").

const ADMIN_PASSWORD = 'Upgrade-Forward-8820-lagoon';
const MIGRATIONS = path.join(import.meta.dirname, '../src/db/migrations');

/** The SHA-256 of the migration files up to `last` (name, newline, text; in name order). */
function releasedMigrationsHash(last: string): string {
  const files = fs.readdirSync(MIGRATIONS).filter((f) => /^\d{3}_.*\.ts$/.test(f) && f.replace(/\.ts$/, '') <= last).sort();
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f}\n${fs.readFileSync(path.join(MIGRATIONS, f), 'utf8')}`);
  return hash.digest('hex');
}

describe(`upgrade from the previous release's database (${ENGINE})`, () => {
  it('the released migration files are unchanged', () => {
    expect(releasedMigrationsHash(PREVIOUS_RELEASE.lastMigration), 'a released migration was edited: add a new migration instead').toBe(PREVIOUS_RELEASE.sha256);
  });

  it('this build starts on it, migrates forward, keeps its data and serves', { timeout: 120_000 }, async () => {
    const db = await freshDatabase('panel_upgrade');
    let server: ServerProcess | undefined;
    try {
      const config = loadConfig({ DATABASE_URL: db.url, ADMIN_PASSWORD });
      const old = openDatabase(db.url, config);
      try {
        await migrate(old.db, old.dialect, PREVIOUS_RELEASE.lastMigration);
        await ensureFirstAdmin({ config, database: old });
      } finally {
        await old.close();
      }

      server = new ServerProcess(await freePort(), { DATABASE_URL: db.url, LOG_LEVEL: 'info' });
      await server.start();
      expect(await (await fetch(`${server.base}/readyz`)).json()).toEqual({ status: 'ready' });
      const signIn = await fetch(`${server.base}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
      expect(signIn.status, server.output.join('\n')).toBe(200);
      const { token } = (await signIn.json()) as { token: string };
      const lines = await fetch(`${server.base}/api/users`, { headers: { authorization: `Bearer ${token}` } });
      expect(lines.status).toBe(200);
      expect(server.output.join('\n')).not.toContain('First admin created');

      const now = openDatabase(db.url, config);
      try {
        expect(await hasThisBuildsMigrations(now.db)).toBe(true);
      } finally {
        await now.close();
      }
    } finally {
      await server?.stop('SIGKILL');
      await db.drop();
    }
  });
});
