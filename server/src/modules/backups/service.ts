import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import { backupPostgres, backupSqlite, defaultBackupPath } from '../../db/backup.ts';

// Scheduled backups (docs/operations.md, "Backups"): the same copy as `npm run backup`, written
// into BACKUP_DIR, keeping the newest BACKUP_KEEP. The scheduler (scheduler.ts) says when.

/** What a backup file of ours is called (db/backup.ts defaultBackupPath): nothing else in the folder is touched. */
const OURS = /^panel-\d{8}-\d{6}\.(db|dump)$/;

/** One backup of the panel's database into `config.backupDir`; answers the file written. */
export async function backupNow({ config, database }: Deps): Promise<string> {
  if (database.dialect === 'sqlite') {
    const out = defaultBackupPath(config.backupDir, 'db');
    await backupSqlite(path.resolve(config.databaseUrl.slice('sqlite:'.length)), out);
    return out;
  }
  const out = defaultBackupPath(config.backupDir, 'dump');
  await backupPostgres(config.databaseUrl, out);
  return out;
}

/** Removes our backups beyond the newest `keep` (names sort by their UTC time); answers the files removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const ours = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => OURS.test(f)).sort() : [];
  const old = ours.slice(0, Math.max(0, ours.length - keep)).map((f) => path.join(dir, f));
  for (const f of old) fs.rmSync(f, { force: true });
  return old;
}
