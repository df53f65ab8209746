import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, resetClock } from '../src/lib/clock.ts';
import { backupTick } from '../src/modules/backups/scheduler.ts';
import { createReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { ServerProcess, freePort, freshDatabase } from './security/server-process.ts';
import { waitFor } from './wait.ts';

// Scheduled backups (BACKUP_EVERY_HOURS, docs/operations.md): one process takes each due backup,
// the next one comes BACKUP_EVERY_HOURS later, BACKUP_KEEP are kept, and what was written restores.

const HOUR_MS = 3_600_000;
const ours = (dir: string) => fs.readdirSync(dir).filter((f) => /^panel-.*\.(db|dump)$/.test(f)).sort();

/** The usernames of the resellers in a backup file, restored the engine's way. */
async function restoredUsernames(t: TestContext, file: string): Promise<string[]> {
  if (ENGINE === 'sqlite') {
    const copy = new SqliteDatabase(file, { readonly: true });
    try {
      return (copy.prepare('select username from resellers order by id').all() as { username: string }[]).map((r) => r.username);
    } finally {
      copy.close();
    }
  }
  const url = t.deps.config.databaseUrl;
  const target = `${url.replace(/.*\//, '')}_restored`;
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${target}`);
  try {
    const restored = spawnSync('pg_restore', ['--no-owner', `--dbname=${url.replace(/\/[^/]*$/, `/${target}`)}`, file], { encoding: 'utf8' });
    expect(restored.status, restored.stderr).toBe(0);
    const c = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, `/${target}`) });
    await c.connect();
    try {
      return (await c.query('select username from resellers order by id')).rows.map((r) => r.username);
    } finally {
      await c.end();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
    await admin.end();
  }
}

describe(`scheduled backups (${ENGINE})`, () => {
  let t: TestContext;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-backups-'));
    t = await createTestContext({ backupEveryHours: 6, backupDir: dir, backupKeep: 2 });
    const admin = await t.login('admin');
    await createReseller(t, admin, { username: 'kept_in_backup', password: 'trilho-azul-vento-2026', type: 'reseller', groups: await groupIds(t, admin) });
  });
  afterEach(() => resetClock());
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('one of the processes ticking at once takes a due backup; the next is due BACKUP_EVERY_HOURS later; BACKUP_KEEP are kept; the newest restores', async () => {
    const first = await Promise.all(['host-a', 'host-b', 'host-c'].map((holder) => backupTick(t.deps, holder)));
    expect(first.filter((r) => r.took)).toHaveLength(1);
    expect(ours(dir)).toHaveLength(1);

    // not due again within the period, for anyone
    advanceClock(5 * HOUR_MS);
    expect((await Promise.all(['host-a', 'host-b'].map((h) => backupTick(t.deps, h)))).some((r) => r.took)).toBe(false);

    // due after it: the next ones, each on one process; the oldest beyond BACKUP_KEEP removed
    advanceClock(HOUR_MS + 1_000);
    const second = await Promise.all(['host-a', 'host-b'].map((h) => backupTick(t.deps, h)));
    expect(second.filter((r) => r.took)).toHaveLength(1);
    advanceClock(6 * HOUR_MS + 1_000);
    const third = await backupTick(t.deps, 'host-b');
    expect(third.took && 'removed' in third && third.removed).toHaveLength(1);
    const files = ours(dir);
    expect(files).toHaveLength(2);
    expect(third.took && 'file' in third && path.basename(third.file)).toBe(files[1]);

    expect(await restoredUsernames(t, path.join(dir, files[1]!))).toEqual(['admin', 'kept_in_backup']);
  });

  it('a failed backup is tried again 10 minutes later, not at the next period', async () => {
    // a folder that cannot be made: its parent is a file
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const broken = { ...t.deps, config: { ...t.deps.config, backupDir: path.join(file, 'backups') } };
    advanceClock(30 * HOUR_MS); // past the slot the first test left due
    const failed = await backupTick(broken, 'host-a');
    expect(failed.took && 'error' in failed).toBe(true);
    advanceClock(9 * 60_000);
    expect((await backupTick(t.deps, 'host-a')).took).toBe(false);
    advanceClock(2 * 60_000);
    const retried = await backupTick(t.deps, 'host-b');
    expect(retried.took && 'file' in retried).toBe(true);
  });

  it('the server takes them on its own with BACKUP_EVERY_HOURS', { timeout: 90_000 }, async () => {
    const db = await freshDatabase('panel_backup_schedule');
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'panel-backups-server-'));
    const server = new ServerProcess(await freePort(), { DATABASE_URL: db.url, ADMIN_PASSWORD: 'Backup-Schedule-3390-cedar', BACKUP_EVERY_HOURS: '24', BACKUP_DIR: out, BACKUP_TICK_SECONDS: '1', LOG_LEVEL: 'info' });
    try {
      await server.start();
      const files = await waitFor(() => (ours(out).length ? ours(out) : undefined), { what: 'the first scheduled backup', timeoutMs: 30_000 });
      expect(files).toHaveLength(1);
      await waitFor(() => server.output.some((l) => l.includes('backup written')), { what: 'the log line of the backup' });
    } finally {
      await server.stop('SIGTERM');
      await db.drop();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
