import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { nowDate } from '../lib/clock.ts';

/** Where a backup goes when no path is given: backups/panel-<UTC stamp>.<ext> under `dir`. */
export function defaultBackupPath(dir: string, ext: 'db' | 'dump', now = nowDate()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.join(dir, `panel-${stamp}.${ext}`);
}

/**
 * A consistent copy of a live SQLite database through SQLite's online backup API: pages are
 * copied in steps and the copy restarts by itself if another connection writes meanwhile, so
 * the server keeps running. The copy is checked with `PRAGMA integrity_check` before we say ok.
 */
export async function backupSqlite(file: string, out: string): Promise<{ pages: number }> {
  if (!fs.existsSync(file)) throw new Error(`no database at ${file}`);
  if (fs.existsSync(out)) throw new Error(`${out} already exists; refusing to overwrite a backup`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const source = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  source.pragma('busy_timeout = 5000');
  try {
    const progress = await source.backup(out);
    const copy = new SqliteDatabase(out, { readonly: true });
    try {
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`integrity check of the copy failed: ${String(check)}`);
    } finally {
      copy.close();
    }
    return { pages: progress.totalPages };
  } catch (err) {
    fs.rmSync(out, { force: true });
    throw err;
  } finally {
    source.close();
  }
}

/** PostgreSQL: pg_dump's custom format, one consistent snapshot; restore with pg_restore. */
export function backupPostgres(url: string, out: string): Promise<void> {
  if (fs.existsSync(out)) return Promise.reject(new Error(`${out} already exists; refusing to overwrite a backup`));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  // The password travels in the environment, not on the command line where `ps` shows it.
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env = password ? { ...process.env, PGPASSWORD: password } : process.env;
  return new Promise((resolve, reject) => {
    const child = spawn('pg_dump', ['--format=custom', '--no-owner', `--file=${out}`, `--dbname=${parsed.toString()}`], { stdio: ['ignore', 'inherit', 'inherit'], env });
    child.on('error', (err) => reject(new Error(`pg_dump could not run (${err.message}); install PostgreSQL's client tools`)));
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else {
        fs.rmSync(out, { force: true });
        reject(new Error(`pg_dump exited with ${code}`));
      }
    });
  });
}
