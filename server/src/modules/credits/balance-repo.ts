import { type Insertable, sql } from 'kysely';
import { compiledOnce } from '../../db/compiled.ts';
import type { Tx } from '../../db/tx.ts';
import type { CreditLedgerTable } from '../../db/types.ts';

/** Locks the reseller rows (PostgreSQL) in id order; FOR NO KEY UPDATE, see ledger.ts. */
export async function lockRows(db: Tx, sortedIds: number[]): Promise<void> {
  await db.selectFrom('resellers').select('id').where('id', 'in', sortedIds).orderBy('id').forNoKeyUpdate().execute();
}

const insertLedger = compiledOnce((db, row: Insertable<CreditLedgerTable>) => db.insertInto('credit_ledger').values(row));

export async function insertLedgerRow(db: Tx, row: Insertable<CreditLedgerTable>): Promise<void> {
  await db.executeQuery(insertLedger(db, row));
}

const take = compiledOnce((db, a: { resellerId: number; amount: number }) =>
  db
    .updateTable('resellers')
    .set({ credits: sql`credits - ${a.amount}` })
    .where('id', '=', a.resellerId)
    .where('credits', '>=', a.amount)
    .returning('credits'),
);

/** Takes `amount` off the balance only when it covers it; the new balance, or undefined when it does not. */
export async function takeFromBalance(db: Tx, resellerId: number, amount: number): Promise<number | undefined> {
  return (await db.executeQuery(take(db, { resellerId, amount }))).rows[0]?.credits;
}

const add = compiledOnce((db, a: { resellerId: number; amount: number; atMost: number }) =>
  db
    .updateTable('resellers')
    .set({ credits: sql`credits + ${a.amount}` })
    .where('id', '=', a.resellerId)
    .where('credits', '<=', a.atMost)
    .returning('credits'),
);

/** Adds `amount` unless the balance would pass `max`; the new balance, or undefined. */
export async function addToBalance(db: Tx, resellerId: number, amount: number, max: number): Promise<number | undefined> {
  return (await db.executeQuery(add(db, { resellerId, amount, atMost: max - amount }))).rows[0]?.credits;
}

export async function balanceOf(db: Tx, resellerId: number): Promise<number> {
  const row = await db.selectFrom('resellers').select('credits').where('id', '=', resellerId).executeTakeFirst();
  return row?.credits ?? 0;
}
