import { isTopLevel } from '../../repos/scope-repo.ts';
import type { Deps } from '../../deps.ts';
import { validation } from '../../http/errors.ts';
import { type Order, parseOrder, cursorOf } from '../../http/paging.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { LOG_ACTIONS, LOG_TYPES } from './actions.ts';
import * as repo from './repo.ts';

export type { LogRow } from './repo.ts';

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
  after?: string;
  before?: string;
}

// The log reads in time order, either way: rows are appended, so "by id" is time order too (ties
// broken by id). Type and action have their filters; sorting a million rows by type, action or
// credits would have needed an index each (docs/decisions.md, "What the lists sort by").
export const ORDER_FIELDS = { id: 'lg.created_at', created_at: 'lg.created_at' };
const DEFAULT_ORDER: Order = { column: 'lg.created_at', direction: 'desc' };

function parseDates(raw: string): [number, number] {
  const texts = raw.split(',').map((p) => p.trim());
  const parts = texts.map(Number);
  if (parts.length !== 2 || texts.some((t) => !/^\d+$/.test(t)) || parts.some((n) => !Number.isSafeInteger(n)) || parts[0] > parts[1]) {
    throw validation('dates', 'must be two epoch-ms values "from,to" with from <= to');
  }
  return [parts[0], parts[1]];
}

function filters(q: LogQuery): repo.LogFilters {
  return {
    type: q.type,
    actions: (q.actions ?? '').split(',').map((a) => a.trim()).filter(Boolean),
    reseller: q.reseller,
    toreseller: q.toreseller,
    user: q.user,
    dates: q.dates ? parseDates(q.dates) : undefined,
  };
}

/** Whose log rows the caller sees: what it or anyone below it did, or what was done to them (repo.LogScope). */
async function scope(deps: Deps, actor: AuthUser): Promise<repo.LogScope> {
  if (actor.type === 'admin') return null;
  const db = deps.database.db;
  if (await isTopLevel(db, actor)) return { top: actor.id };
  return { ids: await repo.subtreeIdList(db, actor.id) };
}

/** The action log, scoped to what the caller or anyone below it did, or what was done to them. */
export async function list(deps: Deps, actor: AuthUser, q: LogQuery) {
  const f = filters(q);
  const order = parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER);
  return repo.pageLogs(deps.database.db, await scope(deps, actor), f, { page: q.page, per: q.per, order, cursor: cursorOf(q), walk: deps.database.dialect === 'sqlite' });
}

/** The list's rows for an export: every match in id order, streamed (same filters and scope as `list`). */
export async function exportRows(deps: Deps, actor: AuthUser, q: LogQuery) {
  const f = filters(q);
  return repo.iterateLogs(deps.database.db, await scope(deps, actor), f);
}

export const options = () => ({ types: [...LOG_TYPES], actions: [...LOG_ACTIONS] });
export { writeLog } from './write.ts';
