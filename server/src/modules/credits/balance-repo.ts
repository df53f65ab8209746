import { type Insertable, type QueryCreator, SqliteAdapter, sql } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { CreditLedgerTable, DB } from '../../db/types.ts';

/** Locks the reseller rows (PostgreSQL) in id order; FOR NO KEY UPDATE, see ledger.ts. */
export async function lockRows(db: Tx, sortedIds: number[]): Promise<void> {
  await db.selectFrom('resellers').select('id').where('id', 'in', sortedIds).orderBy('id').forNoKeyUpdate().execute();
}

/** A ledger row before its balance is known: the balance statement gives `balance_after`. */
export type LedgerEntry = Required<Omit<Insertable<CreditLedgerTable>, 'balance_after' | 'id'>>;

/** Where a balance may move: by `delta`, only when the result stays within [0, max]. */
type Bounds = {
  resellerId: number;
  delta: number;
  atLeast: number;
  atMost: number;
};

/** The guarded update both engines run: it changes the balance only within its bounds. */
const guardedUpdate = (db: QueryCreator<DB>, a: Bounds) =>
  db
    .updateTable('resellers')
    .set({ credits: sql`credits + ${a.delta}` })
    .where('id', '=', a.resellerId)
    .where('credits', '>=', a.atLeast)
    .where('credits', '<=', a.atMost);

/**
 * PostgreSQL: the guarded update and its ledger row in one statement (a data-modifying WITH): the
 * row is written only when the update was, with the balance it returned, and the spend holds its
 * balance row locked one round trip less.
 */
const moveRecorded = (db: Tx, a: Bounds & LedgerEntry) =>
  db
    .with('moved', (qb) => guardedUpdate(qb, a).returning(['id', 'credits']))
    .insertInto('credit_ledger')
    .columns(['reseller_id', 'delta', 'balance_after', 'reason', 'counterparty_id', 'line_id', 'p2p_account_id', 'actor_id', 'idempotency_key', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('moved')
        .select([
          'moved.id',
          eb.val(a.delta).as('delta'),
          'moved.credits',
          eb.val(a.reason).as('reason'),
          eb.val(a.counterparty_id).as('counterparty_id'),
          eb.val(a.line_id).as('line_id'),
          eb.val(a.p2p_account_id).as('p2p_account_id'),
          eb.val(a.actor_id).as('actor_id'),
          eb.val(a.idempotency_key).as('idempotency_key'),
          eb.val(a.created_at).as('created_at'),
        ]),
    )
    .returning('balance_after');

/**
 * Adds `entry.delta` (negative: takes) to the reseller's balance only when the new balance stays
 * between 0 and `max`, and writes the ledger row with it: the new balance, or undefined when the
 * balance would leave that range (and nothing was written).
 */
export async function moveBalance(db: Tx, entry: LedgerEntry, max: number): Promise<number | undefined> {
  const bounds: Bounds = { resellerId: entry.reseller_id, delta: entry.delta, atLeast: Math.max(0, -entry.delta), atMost: max - Math.max(0, entry.delta) };
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    return (await moveRecorded(db, { ...entry, ...bounds }).executeTakeFirst())?.balance_after;
  }
  const balance = (await guardedUpdate(db, bounds).returning('credits').executeTakeFirst())?.credits;
  if (balance !== undefined) await db.insertInto('credit_ledger').values({ ...entry, balance_after: balance }).execute();
  return balance;
}

export async function balanceOf(db: Tx, resellerId: number): Promise<number> {
  const row = await db.selectFrom('resellers').select('credits').where('id', '=', resellerId).executeTakeFirst();
  return row?.credits ?? 0;
}
