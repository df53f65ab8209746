import { type Insertable, sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { CreditLedgerTable } from '../../db/types.ts';

/** Locks the reseller rows (PostgreSQL) in id order; FOR NO KEY UPDATE, see ledger.ts. */
export async function lockRows(db: Tx, sortedIds: number[]): Promise<void> {
  await db.selectFrom('resellers').select('id').where('id', 'in', sortedIds).orderBy('id').forNoKeyUpdate().execute();
}

export async function insertLedgerRow(db: Tx, row: Insertable<CreditLedgerTable>): Promise<void> {
  await db.insertInto('credit_ledger').values(row).execute();
}

/** Takes `amount` off the balance only when it covers it; the new balance, or undefined when it does not. */
export async function takeFromBalance(db: Tx, resellerId: number, amount: number): Promise<number | undefined> {
  const row = await db
    .updateTable('resellers')
    .set({ credits: sql`credits - ${amount}` })
    .where('id', '=', resellerId)
    .where('credits', '>=', amount)
    .returning('credits')
    .executeTakeFirst();
  return row?.credits;
}

/** Adds `amount` unless the balance would pass `max`; the new balance, or undefined. */
export async function addToBalance(db: Tx, resellerId: number, amount: number, max: number): Promise<number | undefined> {
  const row = await db
    .updateTable('resellers')
    .set({ credits: sql`credits + ${amount}` })
    .where('id', '=', resellerId)
    .where('credits', '<=', max - amount)
    .returning('credits')
    .executeTakeFirst();
  return row?.credits;
}

export async function balanceOf(db: Tx, resellerId: number): Promise<number> {
  const row = await db.selectFrom('resellers').select('credits').where('id', '=', resellerId).executeTakeFirst();
  return row?.credits ?? 0;
}
