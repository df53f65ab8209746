import { createHash } from 'node:crypto';
import type { Tx } from '../../db/tx.ts';
import type { SourceLine } from './xtream.ts';

/** A lookup as kept: the provider's password as a SHA-256 (see migration 020). */
export interface KeptLookup {
  username: string;
  password_sha256: string;
  exp_date: number | null;
  is_trial: boolean;
  /** epoch milliseconds */
  at: number;
}

export const passwordSha256 = (password: string) => createHash('sha256').update(password).digest('hex');

/** Keeps (or replaces) what the provider answered for this caller and username; drops rows older than `expiredBefore`. */
export async function keepLookup(db: Tx, resellerId: number, line: SourceLine, at: number, expiredBefore: number): Promise<void> {
  await db.deleteFrom('migration_lookups').where('looked_up_at', '<', expiredBefore).execute();
  const values = {
    password_sha256: passwordSha256(line.password),
    exp_date: line.exp_date,
    created_at: line.created_at,
    is_trial: line.is_trial ? 1 : 0,
    looked_up_at: at,
  };
  await db
    .insertInto('migration_lookups')
    .values({ reseller_id: resellerId, username: line.username, ...values })
    .onConflict((oc) => oc.columns(['reseller_id', 'username']).doUpdateSet(values))
    .execute();
}

export async function findLookup(db: Tx, resellerId: number, username: string): Promise<KeptLookup | undefined> {
  const row = await db
    .selectFrom('migration_lookups')
    .select(['username', 'password_sha256', 'exp_date', 'is_trial', 'looked_up_at'])
    .where('reseller_id', '=', resellerId)
    .where('username', '=', username)
    .executeTakeFirst();
  return row && { username: row.username, password_sha256: row.password_sha256, exp_date: row.exp_date, is_trial: row.is_trial === 1, at: row.looked_up_at };
}
