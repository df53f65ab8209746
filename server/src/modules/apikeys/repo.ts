import { sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { ApiKeysTable } from '../../db/types.ts';
import type { Insertable } from 'kysely';

const LISTED = ['id', 'name', 'scopes', 'allowed_ips', 'created_at', 'expires_at', 'revoked_at', 'last_used_at', 'last_used_ip'] as const;

export async function insertKey(db: Tx, row: Insertable<ApiKeysTable>): Promise<number> {
  const made = await db.insertInto('api_keys').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(made.id);
}

/** An account's keys, newest first (an account has a handful: no paging). */
export const keysOf = (db: Tx, resellerId: number) => db.selectFrom('api_keys').select(LISTED).where('reseller_id', '=', resellerId).orderBy('id', 'desc').limit(200).execute();

export const countLiveKeys = async (db: Tx, resellerId: number) =>
  Number((await db.selectFrom('api_keys').select(sql<number>`count(*)`.as('n')).where('reseller_id', '=', resellerId).where('revoked_at', 'is', null).executeTakeFirstOrThrow()).n);

export async function revokeKey(db: Tx, resellerId: number, id: number, now: number): Promise<{ name: string } | undefined> {
  const row = await db.selectFrom('api_keys').select(['name', 'revoked_at']).where('id', '=', id).where('reseller_id', '=', resellerId).executeTakeFirst();
  if (!row) return undefined;
  if (row.revoked_at === null) await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).execute();
  return { name: row.name };
}

/** A key by its hash with what signing in as its owner needs (as the session statement reads it). */
export function keyByHash(db: Tx, keyHash: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('resellers', 'resellers.id', 'k.reseller_id')
    .innerJoin('groups', 'groups.group_id', 'resellers.member_group_id')
    .leftJoin('two_factor', (join) => join.onRef('two_factor.reseller_id', '=', 'k.reseller_id').on('two_factor.enabled_at', 'is not', null))
    .select([
      'k.id',
      'k.name',
      'k.scopes',
      'k.allowed_ips',
      'k.expires_at',
      'k.revoked_at',
      'k.last_used_at',
      'k.reseller_id',
      'resellers.status',
      'resellers.deleted_at',
      'resellers.username',
      'resellers.credits',
      'groups.type',
      sql<number | boolean>`two_factor.reseller_id is not null`.as('two_factor_enabled'),
      sql<number | boolean>`(select max(rt.depth) from reseller_tree rt where rt.descendant_id = k.reseller_id) = 1`.as('top_level'),
    ])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function touchKey(db: Tx, id: number, now: number, ip: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now, last_used_ip: ip }).where('id', '=', id).execute();
}

/** Counts one request of the key in this minute (one upsert: processes queue on the row) and returns the minute's count. */
export async function countRequest(db: Tx, keyId: number, minute: number): Promise<number> {
  const row = await db
    .insertInto('api_key_usage')
    .values({ key_id: keyId, minute, requests: 1 })
    .onConflict((oc) => oc.columns(['key_id', 'minute']).doUpdateSet({ requests: sql`api_key_usage.requests + 1` }))
    .returning('requests')
    .executeTakeFirstOrThrow();
  return Number(row.requests);
}

export async function pruneUsage(db: Tx, beforeMinute: number): Promise<void> {
  await db.deleteFrom('api_key_usage').where('minute', '<', beforeMinute).execute();
}
