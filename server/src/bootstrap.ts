import { randomBytes } from 'node:crypto';
import type { Deps } from './deps.ts';
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
  await withTx(database, (trx) => insertFirstAdmin(trx, { username: config.adminUsername, password_hash, created_at: nowSec() }));
  return { username: config.adminUsername, password: generated };
}
