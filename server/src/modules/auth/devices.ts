import type { Deps } from '../../deps.ts';
import type { Tx } from '../../db/tx.ts';
import { nowSec } from '../../lib/clock.ts';
import * as repo from './throttle-repo.ts';
import { hashToken, newToken } from './tokens.ts';

/** Devices kept per reseller (the most recently used). */
const DEVICES_PER_RESELLER = 20;

/**
 * A known device is a browser that signed in to the account before: it holds a random token (only
 * its hash is stored) that lets its sign-ins skip the per-IP and per-account counters. It proves
 * nothing by itself; the password is still checked.
 */
export async function knownDeviceFor(db: Tx, token: string | undefined, username: string): Promise<number | null> {
  if (!token || token.length > 200) return null;
  const row = await repo.findKnownDevice(db, hashToken(token), nowSec());
  return row && row.username.toLowerCase() === username.toLowerCase() ? row.id : null;
}

/** After a successful sign-in: extends the presented device token, or issues a new one. */
export async function rememberDevice({ config, database }: Deps, resellerId: number, presented: string | undefined): Promise<string> {
  const now = nowSec();
  const expiresAt = now + config.loginDeviceDays * 86400;
  if (presented && presented.length <= 200) {
    const row = await repo.findKnownDevice(database.db, hashToken(presented), now);
    if (row && row.reseller_id === resellerId) {
      await repo.extendKnownDevice(database.db, row.id, now, expiresAt);
      return presented;
    }
  }
  const { token, tokenHash } = newToken();
  await repo.addKnownDevice(database.db, { reseller_id: resellerId, token_hash: tokenHash, created_at: now, expires_at: expiresAt }, DEVICES_PER_RESELLER);
  return token;
}
