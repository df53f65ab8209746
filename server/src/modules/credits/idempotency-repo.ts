import type { Insertable } from 'kysely';
import { compiledOnce } from '../../db/compiled.ts';
import { firstByKey } from '../../db/planned.ts';
import type { Tx } from '../../db/tx.ts';
import type { IdempotencyKeysTable } from '../../db/types.ts';

const selectKey = compiledOnce((db, a: { resellerId: number; key: string }) =>
  // columns named, not `*`: a statement PostgreSQL keeps prepared must not change its result's shape
  db.selectFrom('idempotency_keys').select(['reseller_id', 'key', 'request_hash', 'status_code', 'response', 'created_at']).where('reseller_id', '=', a.resellerId).where('key', '=', a.key),
);

export const findKey = (db: Tx, resellerId: number, key: string) => firstByKey(db, selectKey(db, { resellerId, key }));

const insert = compiledOnce((db, row: Insertable<IdempotencyKeysTable>) => db.insertInto('idempotency_keys').values(row));

export async function insertKey(db: Tx, row: Insertable<IdempotencyKeysTable>): Promise<void> {
  await db.executeQuery(insert(db, row));
}
