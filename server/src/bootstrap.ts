import { randomBytes } from 'node:crypto';
import type { Deps } from './deps.ts';
import { migrate } from './db/migrations/index.ts';
import { whileHoldingStartLock } from './db/start-lock.ts';
import { withTx } from './db/tx.ts';
import { nowSec } from './lib/clock.ts';
import { hashPassword } from './modules/auth/tokens.ts';
import { passwordWeakness } from './modules/resellers/passwords.ts';
import { anyResellerExists, insertFirstAdmin } from './modules/resellers/repo.ts';

/**
 * On an empty database, creates the first admin. Without ADMIN_PASSWORD a random one is
 * generated and returned so main.ts prints it once; there is never a default password.
 */
export async function ensureFirstAdmin({ config, database }: Deps): Promise<{ username: string; password?: string } | null> {
  if (await anyResellerExists(database.db)) return null;
  const generated = config.adminPassword ? undefined : randomBytes(12).toString('base64url');
  const password = config.adminPassword ?? (generated as string);
  const weakness = config.adminPassword ? await passwordWeakness(config.adminPassword) : null;
  if (weakness) throw new Error(`ADMIN_PASSWORD is too weak (${weakness}): choose a stronger one, or leave it unset to get a generated password`);
  const password_hash = await hashPassword(password);
  // asked again inside the transaction: a second process (SQLite's sqlite3 shell, an older host
  // without the start lock) may have created it while the password was hashed
  const created = await withTx(database, async (trx) => {
    if (await anyResellerExists(trx)) return false;
    await insertFirstAdmin(trx, { username: config.adminUsername, password_hash, created_at: nowSec() });
    return true;
  });
  return created ? { username: config.adminUsername, password: generated } : null;
}

/**
 * Migrations and the first admin, once per database: in the only process or the cluster's
 * primary, and across hosts under the start lock (db/start-lock.ts). Returns the first admin when
 * this call created it.
 */
export function prepareDatabase(deps: Deps): Promise<{ username: string; password?: string } | null> {
  return whileHoldingStartLock(deps.database, async () => {
    await migrate(deps.database.db, deps.database.dialect);
    return ensureFirstAdmin(deps);
  });
}
