import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import { validation } from '../../http/errors.ts';
import { type Order, paginate, parseOrder } from '../../http/paging.ts';
import type { AuthUser } from '../auth/service.ts';
import { subtreeIds } from '../resellers/scope.ts';
import { LOG_ACTIONS, LOG_TYPES } from './actions.ts';

export interface LogRow {
  id: number;
  type_log: string;
  action: string;
  user: string | null;
  reseller: string | null;
  toreseller: string | null;
  target_user: string | null;
  value: string | null;
  value_int: number | null;
  created_at: number;
}

export interface LogQuery {
  page?: number;
  per?: number;
  order_by?: string;
  type?: string;
  actions?: string;
  reseller?: number;
  toreseller?: number;
  user?: string;
  dates?: string;
}

const ORDER_FIELDS = { id: 'lg.id', created_at: 'lg.created_at', type_log: 'lg.type_log', action: 'lg.action', value_int: 'lg.value_int' };
const DEFAULT_ORDER: Order = { column: 'lg.created_at', direction: 'desc' };

function parseDates(raw: string): [number, number] {
  const texts = raw.split(',').map((p) => p.trim());
  const parts = texts.map(Number);
  if (parts.length !== 2 || texts.some((t) => !/^\d+$/.test(t)) || parts.some((n) => !Number.isSafeInteger(n)) || parts[0] > parts[1]) {
    throw validation('dates', 'must be two epoch-ms values "from,to" with from <= to');
  }
  return [parts[0], parts[1]];
}

/** The action log, scoped to what the caller or anyone below it did, or what was done to them. */
export async function list({ database }: Deps, actor: AuthUser, q: LogQuery) {
  const db = database.db;
  let base = db.selectFrom('logs as lg');
  if (actor.type !== 'admin') {
    // The subtree as a literal list (at most a few thousand ids): with a subquery PostgreSQL cannot
    // estimate how many log rows match and scans the whole table; with the list it uses both indexes.
    const ids = (await subtreeIds(db, actor.id, true).execute()).map((r) => r.descendant_id);
    base = base.where((eb) => eb.or([eb('lg.reseller_id', 'in', ids), eb('lg.target_reseller_id', 'in', ids)]));
  }
  if (q.type) base = base.where('lg.type_log', '=', q.type);
  const actions = (q.actions ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  if (actions.length > 0) base = base.where('lg.action', 'in', actions);
  if (q.reseller !== undefined) base = base.where('lg.reseller_id', '=', q.reseller);
  if (q.toreseller !== undefined) base = base.where('lg.target_reseller_id', '=', q.toreseller);
  // `user` is a line's username: only line actions carry one (sign-ins keep the reseller's name there).
  if (q.user) base = base.where('lg.type_log', '=', 'user').where(sql`lower(lg.target_user)`, '=', q.user.toLowerCase());
  if (q.dates) {
    const [from, to] = parseDates(q.dates);
    base = base.where('lg.created_at', '>=', from).where('lg.created_at', '<=', to);
  }
  return paginate<LogRow>(
    base,
    (b) =>
      // Names are joined on the page only, so the count never pays for them.
      (b as typeof base)
        .leftJoin('resellers as a', 'a.id', 'lg.actor_id')
        .leftJoin('resellers as r', 'r.id', 'lg.reseller_id')
        .leftJoin('resellers as t', 't.id', 'lg.target_reseller_id')
        .select([
        'lg.id',
        'lg.type_log',
        'lg.action',
        'a.username as user',
        'r.username as reseller',
        't.username as toreseller',
        'lg.target_user',
        'lg.value',
        'lg.value_int',
        'lg.created_at',
      ]) as never,
    { db, page: q.page, per: q.per, order: parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER), tiebreak: 'lg.id' },
  );
}

export const options = () => ({ types: [...LOG_TYPES], actions: [...LOG_ACTIONS] });
