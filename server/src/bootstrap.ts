import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from './deps.ts';
import { migrate } from './db/migrations/index.ts';
import { whileHoldingStartLock } from './db/start-lock.ts';
import { withTx } from './db/tx.ts';
import { nowSec } from './lib/clock.ts';
import { hashPassword } from './modules/auth/tokens.ts';
import { passwordWeakness } from './modules/resellers/passwords.ts';
import { anyResellerExists, insertFirstAdmin } from './modules/resellers/repo.ts';

/** Where a generated first-admin password is written, in the data directory (PANEL_DATA_DIR). */
export const FIRST_ADMIN_PASSWORD_FILE = 'first-admin-password';

/**
 * On an empty database, creates the first admin. Without ADMIN_PASSWORD a random one is generated
 * and written to `first-admin-password` in the data directory, readable by this user only (its
 * path is returned for main.ts to log): a password never goes to the log. There is never a
 * default password. The file is written in the admin's transaction: a start that cannot write it
 * stops with nothing created.
 */
export async function ensureFirstAdmin({ config, database }: Deps): Promise<{ username: string; passwordFile?: string } | null> {
  if (await anyResellerExists(database.db)) return null;
  const generated = config.adminPassword ? undefined : randomBytes(12).toString('base64url');
  const password = config.adminPassword ?? (generated as string);
  const weakness = config.adminPassword ? await passwordWeakness(config.adminPassword) : null;
  if (weakness) throw new Error(`ADMIN_PASSWORD is too weak (${weakness}): choose a stronger one, or leave it unset to get a generated password`);
  const password_hash = await hashPassword(password);
  // asked again inside the transaction: a second process (SQLite's sqlite3 shell, an older host
  // without the start lock) may have created it while the password was hashed. The password file
  // is written by the creator only, inside the transaction: a file that cannot be written creates no admin.
  return withTx(database, async (trx) => {
    if (await anyResellerExists(trx)) return null;
    await insertFirstAdmin(trx, { username: config.adminUsername, password_hash, created_at: nowSec() });
    return { username: config.adminUsername, passwordFile: generated ? writePasswordFile(config.dataDir, generated) : undefined };
  });
}

/**
 * Migrations and the first admin, once per database: in the only process or the cluster's
 * primary, and across hosts under the start lock (db/start-lock.ts). Returns the first admin when
 * this call created it.
 */
export function prepareDatabase(deps: Deps): Promise<{ username: string; passwordFile?: string } | null> {
  return whileHoldingStartLock(deps.database, async () => {
    await migrate(deps.database.db, deps.database.dialect);
    return ensureFirstAdmin(deps);
  });
}

function writePasswordFile(dir: string, password: string): string {
  const file = path.join(dir, FIRST_ADMIN_PASSWORD_FILE);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.rmSync(file, { force: true }); // a new file, so its mode is ours
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    throw new Error(`could not write the first admin's generated password to ${file} (${(err as Error).message}): make PANEL_DATA_DIR writable, or set ADMIN_PASSWORD`);
  }
  return file;
}
