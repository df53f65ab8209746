import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import type { AuthUser } from '../auth/service.ts';
import { findVisible } from '../resellers/repo.ts';

/** A reseller's credit history, readable by itself and by everyone above it. Newest first. */
export async function history({ database }: Deps, actor: AuthUser, resellerId: number, page = 1, per = 10) {
  const db = database.db;
  if (!(await findVisible(db, actor, resellerId, true))) throw notFound('Reseller');
  const base = db.selectFrom('credit_ledger as l').where('l.reseller_id', '=', resellerId);
  const countRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  const data = await base
    .leftJoin('resellers as c', 'c.id', 'l.counterparty_id')
    .leftJoin('resellers as a', 'a.id', 'l.actor_id')
    .select(['l.id', 'l.delta', 'l.balance_after', 'l.reason', 'l.line_id', 'l.created_at', 'c.username as counterparty', 'a.username as actor'])
    .orderBy('l.id', 'desc')
    .limit(per)
    .offset((page - 1) * per)
    .execute();
  return { data, meta: { page, per, count: data.length, pages: Math.ceil(total / per), total } };
}
