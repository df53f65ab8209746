// `npm run backup [-- --out FILE]`: a consistent copy of the database while the server runs.
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { backupPostgres, backupSqlite, defaultBackupPath } from '../db/backup.ts';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const outArg = outIndex >= 0 ? args[outIndex + 1] : undefined;
const { databaseUrl, backupDir } = loadConfig();

try {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = path.resolve(databaseUrl.slice('sqlite:'.length));
    const out = path.resolve(outArg ?? defaultBackupPath(backupDir, 'db'));
    const { pages } = await backupSqlite(file, out);
    console.log(`Backup written: ${out} (${pages} pages, integrity ok)`);
  } else {
    const out = path.resolve(outArg ?? defaultBackupPath(backupDir, 'dump'));
    await backupPostgres(databaseUrl, out);
    console.log(`Backup written: ${out} (pg_dump custom format; restore with pg_restore)`);
  }
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
