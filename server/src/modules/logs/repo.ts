import { apiKeyInUse } from '../../domain/api-key-context.ts';
import { type SelectQueryBuilder, sql } from 'kysely';
import { keysetRows } from '../../db/keyset.ts';
import { nowMs } from '../../lib/clock.ts';
import { subtreeIds } from '../../repos/scope-repo.ts';
import type { Tx } from '../../db/tx.ts';
import type { NewLog } from '../../db/types.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';

/** Writes one action-log row; callers pass their transaction so the row lands with the change. */
export async function writeLog(db: Tx, row: Omit<NewLog, 'created_at'>): Promise<void> {
  await db.insertInto('logs').values({ ...row, api_key_name: apiKeyInUse.getStore() ?? null, created_at: nowMs() }).execute();
}

export interface LogRow {
  id: number;
  type_log: string;
  action: string;
  user: string | null;
  reseller: string | null;
  toreseller: string | null;
  target_user: string | null;
  api_key: string | null;
  value: string | null;
  value_int: number | null;
  created_at: number;
}

export interface LogFilters {
  type?: string;
  actions: string[];
  reseller?: number;
  toreseller?: number;
  user?: string;
  /** [from, to] epoch ms, inclusive */
  dates?: [number, number];
}

/**
 * Whose rows a caller sees (what it or anyone below it did, or what was done to them): `null`
 * everyone (admins); `top` a top-level master's subtree, by the rows' top-reseller columns
 * (migration 023); `ids` a nested master's subtree as a literal id list (at most a few thousand
 * ids): with a subquery PostgreSQL cannot estimate how many log rows match and scans the whole
 * table; with the list it uses both owner indexes.
 */
export type LogScope = null | { top: number } | { ids: number[] };

/** The log rows matching the filters, in `scope`. */
function filtered(db: Tx, scope: LogScope, f: LogFilters, walk = false) {
  let q = db.selectFrom('logs as lg');
  // `walk` (SQLite, newest first): the scope is tested inside logs_created_scope as the page walks
  // it in time order (unary + keeps SQLite off the owner indexes, which would sort the whole scope).
  const ref = (c: string) => (walk ? sql`+${sql.ref(c)}` : sql.ref(c));
  if (scope && 'ids' in scope) q = q.where((eb) => eb.or([eb(ref('lg.reseller_id'), 'in', scope.ids), eb(ref('lg.target_reseller_id'), 'in', scope.ids)]));
  if (scope && 'top' in scope) q = q.where((eb) => eb.or([eb('lg.top_reseller_id', '=', scope.top), eb('lg.target_top_reseller_id', '=', scope.top)]));
  return matching(q, f) as typeof q;
}

function matching(q: SelectQueryBuilder<any, any, any>, f: LogFilters): SelectQueryBuilder<any, any, any> {
  if (f.type) q = q.where('lg.type_log', '=', f.type);
  if (f.actions.length > 0) q = q.where('lg.action', 'in', f.actions);
  if (f.reseller !== undefined) q = q.where('lg.reseller_id', '=', f.reseller);
  if (f.toreseller !== undefined) q = q.where('lg.target_reseller_id', '=', f.toreseller);
  // `user` is a line's username: only line actions carry one (sign-ins keep the reseller's name there).
  if (f.user) q = q.where('lg.type_log', '=', 'user').where(sql`lower(lg.target_user)`, '=', f.user.toLowerCase());
  if (f.dates) q = q.where('lg.created_at', '>=', f.dates[0]).where('lg.created_at', '<=', f.dates[1]);
  return q;
}

/**
 * A top-level master's page in time order: the newest (or oldest) `offset + per` rows of each of
 * its two ranges (done by its subtree; done to it by others) past the walk's cursor (`seek`),
 * merged, then the page's ids.
 */
function topPageKeys(db: Tx, top: number, f: LogFilters, walk: { order: Order; seek: <Q extends SelectQueryBuilder<any, any, any>>(q: Q) => Q; offset: number; per: number }) {
  const { order, offset, per } = walk;
  const dir = order.direction;
  const arm = (q: SelectQueryBuilder<any, any, any>) =>
    walk.seek(matching(q, f)).select(['lg.id as page_key', 'lg.created_at']).orderBy('lg.created_at', dir).orderBy('lg.id', dir).limit(offset + per);
  const mine = arm(db.selectFrom('logs as lg').where('lg.top_reseller_id', '=', top));
  const toMine = arm(db.selectFrom('logs as lg').where('lg.target_top_reseller_id', '=', top).where('lg.top_reseller_id', 'is distinct from', top));
  const both = db.selectFrom(mine.as('a')).selectAll().unionAll(db.selectFrom(toMine.as('b')).selectAll());
  return db.selectFrom(both.as('k')).select('k.page_key').orderBy('k.created_at', dir).orderBy('k.page_key', dir).limit(per).offset(offset);
}

/** Names are joined on the rows shown only, so counts never pay for them. */
const withNames = (q: ReturnType<typeof filtered>) =>
  q
    .leftJoin('resellers as a', 'a.id', 'lg.actor_id')
    .leftJoin('resellers as r', 'r.id', 'lg.reseller_id')
    .leftJoin('resellers as t', 't.id', 'lg.target_reseller_id')
    .select(['lg.id', 'lg.type_log', 'lg.action', 'a.username as user', 'r.username as reseller', 't.username as toreseller', 'lg.target_user', 'lg.api_key_name as api_key', 'lg.value', 'lg.value_int', 'lg.created_at']);

export function pageLogs(db: Tx, scope: LogScope, f: LogFilters, paging: { page?: number; per?: number; order: Order; walk?: boolean; cursor?: PageCursor }) {
  const byTime = paging.order.column === 'lg.created_at' && f.reseller === undefined && f.toreseller === undefined;
  // A nested master's page walks the time index only when more rows match than the count's cap;
  // fewer are read through the owner indexes and sorted (a walk would read the index to its end).
  const walk = !!paging.walk && !!scope && 'ids' in scope && byTime;
  const base = (many: boolean) => filtered(db, scope, f, walk && many);
  const top = scope && 'top' in scope && byTime ? scope.top : undefined;
  return paginate<LogRow>(base, (b) => withNames(b as ReturnType<typeof base>) as never, {
    db,
    ...paging,
    tiebreak: 'lg.id',
    // The capped count reads the scope through the owner (or top-reseller) indexes (only the matching rows).
    countBase: filtered(db, scope, f),
    countStamp: () => newestLogId(db),
    ...(top !== undefined
      ? {
          keys: (walk: Parameters<typeof topPageKeys>[3]) => topPageKeys(db, top, f, walk),
          deferred: (keys: SelectQueryBuilder<any, any, any>) => withNames(db.selectFrom('logs as lg').where('lg.id', 'in', keys)) as never,
        }
      : {}),
  });
}

/** The action log only ever grows (no route updates or deletes a row): its newest id says whether any count may have moved. */
async function newestLogId(db: Tx): Promise<number> {
  const row = await db.selectFrom('logs').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Every matching row in id order, a batch at a time (exports). */
export function iterateLogs(db: Tx, scope: LogScope, f: LogFilters, batch = 1000): AsyncGenerator<LogRow> {
  return keysetRows((last, limit) => withNames(filtered(db, scope, f).where('lg.id', '>', last)).orderBy('lg.id').limit(limit).execute() as Promise<LogRow[]>, batch);
}

/** The caller and its whole subtree as a literal id list (see `filtered`). */
export async function subtreeIdList(db: Tx, resellerId: number): Promise<number[]> {
  return (await subtreeIds(db, resellerId, true).execute()).map((r) => r.descendant_id);
}
