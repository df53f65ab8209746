import type { Insertable } from 'kysely';
import { firstByKey } from '../../db/planned.ts';
import type { Tx } from '../../db/tx.ts';
import type { IdempotencyKeysTable } from '../../db/types.ts';

export const findKey = (db: Tx, resellerId: number, key: string) =>
  firstByKey(db, db.selectFrom('idempotency_keys').selectAll().where('reseller_id', '=', resellerId).where('key', '=', key));

export async function insertKey(db: Tx, row: Insertable<IdempotencyKeysTable>): Promise<void> {
  await db.insertInto('idempotency_keys').values(row).execute();
}
