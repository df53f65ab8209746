import type { Insertable } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { IdempotencyKeysTable } from '../../db/types.ts';

export const findKey = (db: Tx, resellerId: number, key: string) =>
  db
    .selectFrom('idempotency_keys')
    .select(['reseller_id', 'key', 'request_hash', 'status_code', 'response', 'created_at'])
    .where('reseller_id', '=', resellerId)
    .where('key', '=', key)
    .executeTakeFirst();

export async function insertKey(db: Tx, row: Insertable<IdempotencyKeysTable>): Promise<void> {
  await db.insertInto('idempotency_keys').values(row).execute();
}
