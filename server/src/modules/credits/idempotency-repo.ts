import type { Insertable } from 'kysely';
import { firstByKey } from '../../db/planned.ts';
import type { Tx } from '../../db/tx.ts';
import type { IdempotencyKeysTable } from '../../db/types.ts';

export const findKey = (db: Tx, resellerId: number, key: string) =>
  firstByKey(
    db,
    // columns named, not `*`: a statement PostgreSQL keeps prepared must not change its result's shape
    db.selectFrom('idempotency_keys').select(['reseller_id', 'key', 'request_hash', 'status_code', 'response', 'created_at']).where('reseller_id', '=', resellerId).where('key', '=', key),
  );

export async function insertKey(db: Tx, row: Insertable<IdempotencyKeysTable>): Promise<void> {
  await db.insertInto('idempotency_keys').values(row).execute();
}
