import { keysetRows } from '../../db/keyset.ts';
import { type PageCursor, paginate } from '../../db/paginate.ts';
import type { Tx } from '../../db/tx.ts';

export interface LedgerRow {
  id: number;
  delta: number;
  balance_after: number;
  reason: string;
  line_id: number | null;
  p2p_account_id: number | null;
  created_at: number;
  counterparty: string | null;
  actor: string | null;
}

const ledgerOf = (db: Tx, resellerId: number) => db.selectFrom('credit_ledger as l').where('l.reseller_id', '=', resellerId);

const withNames = (q: ReturnType<typeof ledgerOf>) =>
  q
    .leftJoin('resellers as c', 'c.id', 'l.counterparty_id')
    .leftJoin('resellers as a', 'a.id', 'l.actor_id')
    .select(['l.id', 'l.delta', 'l.balance_after', 'l.reason', 'l.line_id', 'l.p2p_account_id', 'l.created_at', 'c.username as counterparty', 'a.username as actor']);

/** One page of a reseller's ledger, newest first. */
export function pageLedger(db: Tx, resellerId: number, page: number, per: number, cursor?: PageCursor) {
  // (the exact total: a ledger is one reseller's index range, counted on its index alone)
  const total = async () => Number((await ledgerOf(db, resellerId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  return paginate<LedgerRow>(ledgerOf(db, resellerId), (q) => withNames(q as ReturnType<typeof ledgerOf>) as never, {
    db,
    page,
    per,
    cursor,
    total,
    order: { column: 'l.id', direction: 'desc' },
    tiebreak: 'l.id',
  });
}

/** The whole ledger of a reseller in id order, a batch at a time (exports). */
export function iterateLedger(db: Tx, resellerId: number, batch = 1000): AsyncGenerator<LedgerRow> {
  return keysetRows((last, limit) => withNames(ledgerOf(db, resellerId)).where('l.id', '>', last).orderBy('l.id').limit(limit).execute(), batch);
}
