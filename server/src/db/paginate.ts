import { type SelectQueryBuilder, sql } from 'kysely';
import { nowMs } from '../lib/clock.ts';
import { keptPerHandle } from './kept.ts';
import type { Tx } from './tx.ts';

/**
 * Filtered totals are counted up to this many rows. Counting every match of a broad filter over a
 * million lines costs a full scan per page view; past 10,000 rows nobody pages to the end, so the
 * list says "10,000+" instead. Unfiltered totals come exact from counters. The lines list and the
 * log also take their page's path from it (walk the sort's index past it, sort the matches under
 * it). `LIST_COUNT_CAP` changes it: the plan matrix test sets it to its small seed's scale, so both
 * paths are planned there as they are at a million lines.
 */
export const COUNT_CAP = ((n) => (Number.isSafeInteger(n) && n > 0 ? n : 10_000))(Number(process.env.LIST_COUNT_CAP));
/**
 * A free-text search counts at most this many matches: it reads every candidate row (no index
 * narrows `%term%`), so a common term would read 40,000 rows to say "10.000+". The pager then
 * offers the first 1,000 hits: a search with more is refined, not paged through.
 */
export const TEXT_SEARCH_COUNT_CAP = 1_000;

export interface Order {
  column: string;
  direction: 'asc' | 'desc';
}

/** A page's figures (the API's PageMeta). */
export interface PageFigures {
  page: number;
  per: number;
  count: number;
  pages: number;
  total: number;
  capped?: boolean;
}

/**
 * Runs the count and the page of a filtered query; both in SQL, nothing loaded whole. `countBase`:
 * the same rows as `base`, shaped for counting (it may reach them through another index).
 * `deferred`: the page's keys are paged on `base` alone (an index walk, no joins, no wide rows
 * skipped by OFFSET), then `deferred` fetches the rows of those keys (`page_key`). `base` may be
 * chosen by the count: `many` when more rows match than the count's cap (or the exact total).
 */
export async function paginate<R>(
  base: SelectQueryBuilder<any, any, any> | ((many: boolean) => SelectQueryBuilder<any, any, any>),
  select: (q: SelectQueryBuilder<any, any, any>, many: boolean) => SelectQueryBuilder<any, any, R>,
  opts: {
    db: Tx;
    page?: number;
    per?: number;
    order: Order;
    tiebreak: string;
    total?: () => Promise<number>;
    countBase?: SelectQueryBuilder<any, any, any>;
    deferred?: (keys: SelectQueryBuilder<any, any, any>) => SelectQueryBuilder<any, any, R>;
    /** with `deferred`: whether the page of this `many` is deferred (default: always) */
    deferIf?: (many: boolean) => boolean;
    /** with `deferred`: the page's keys (`page_key`) found some other way than walking `base` */
    keys?: (offset: number, per: number) => SelectQueryBuilder<any, any, any>;
    /** stop counting after this many matches (default COUNT_CAP) */
    countCap?: number;
    /** a value that moves whenever any counted row may change: an exact count is kept while it stays */
    countStamp?: () => Promise<number | undefined>;
    /** SQLite: sort the matches (ORDER BY +column), never walk an index in the page's order */
    sortMatches?: (many: boolean) => boolean;
  },
): Promise<{ data: R[]; meta: PageFigures }> {
  const page = opts.page ?? 1;
  const per = opts.per ?? 10;
  const cap = opts.countCap ?? COUNT_CAP;
  const baseFor = (many: boolean) => (typeof base === 'function' ? base(many) : base);
  const counted = opts.total ? await opts.total() : await countRows(opts.db, opts.countBase ?? baseFor(true), cap, opts.countStamp);
  const capped = !opts.total && counted > cap;
  const total = capped ? cap : counted;
  const many = counted > cap;
  const pageBase = baseFor(many);
  const key = (column: string) => (opts.sortMatches?.(many) ? sql`+${sql.ref(column)}` : sql.ref(column));
  const ordered = <Q extends SelectQueryBuilder<any, any, any>>(q: Q) =>
    q.orderBy(key(opts.order.column), opts.order.direction).orderBy(key(opts.tiebreak), opts.order.direction) as Q;
  const rows = opts.deferred && (opts.deferIf?.(many) ?? true)
    ? ordered(opts.deferred(opts.keys ? opts.keys((page - 1) * per, per) : ordered(pageBase.select(sql.ref(opts.tiebreak).as('page_key'))).limit(per).offset((page - 1) * per)))
    : ordered(select(pageBase, many)).limit(per).offset((page - 1) * per);
  const data = (await rows.execute()) as R[];
  return { data, meta: { page, per, count: data.length, pages: Math.ceil(total / per), total, ...(capped ? { capped } : {}) } };
}

/**
 * A count that reached its cap is kept for CAPPED_COUNT_TTL_MS per database handle and statement
 * (scope and filters are its parameters): it only ever shows as "10.000+", which a few changes in
 * a few seconds cannot move, and the pager asks it again on every page of a broad filter, where it
 * costs reading 10,000 index entries. Counts under the cap are kept only with a stamp (below).
 */
const CAPPED_COUNT_TTL_MS = 10_000;
const CAPPED_COUNTS_KEPT = 2_000;
const cappedCounts = keptPerHandle<string, number>(CAPPED_COUNTS_KEPT);

/**
 * Exact counts (under the cap) kept per database handle and statement while the caller's stamp
 * stays put: the action log's stamp is its newest id (rows are only ever appended), so a master's
 * "last 7 days" (7,800 rows of 1M, under the cap, counted on every page view: 65 ms at p99 on
 * SQLite, 175 ms on PostgreSQL) is counted again only after a new log row. At most for
 * CAPPED_COUNT_TTL_MS: on PostgreSQL a transaction still open at the count may commit a lower id
 * after a higher one, which the newest id does not show; its row then joins the total within 10 s.
 * The lines lists' stamp is the caller's dashboard-cache stamp (repos/scope-repo.ts linesChangeStamp), which every line change in its
 * scope moves inside its own transaction (repos/scope-repo.ts): exact, and counts that depend on the time
 * (expiry) carry it as a parameter, so they are never reused past their second.
 */
const stampedCounts = keptPerHandle<string, { stamp: number; n: number; until: number }>(CAPPED_COUNTS_KEPT);

/** Counts matching rows, stopping after cap + 1. */
async function countRows(db: Tx, base: SelectQueryBuilder<any, any, any>, cap: number, readStamp?: () => Promise<number | undefined>): Promise<number> {
  const limited = base.clearSelect().select(sql<number>`1`.as('one')).limit(cap + 1);
  const statement = db.selectFrom(limited.as('matches')).select(sql<number>`count(*)`.as('total')).compile();
  const key = `${statement.sql}\u0000${JSON.stringify(statement.parameters)}`;
  const until = cappedCounts.get(db, key);
  if (until !== undefined && until > nowMs()) return cap + 1;
  // read only past the capped-count check: a broad filter's "10.000+" needs no stamp
  const stamp = await readStamp?.();
  const exact = stamp === undefined ? undefined : stampedCounts.get(db, key);
  if (exact && exact.stamp === stamp && exact.until > nowMs()) return exact.n;
  const row = (await db.executeQuery<{ total: number }>(statement)).rows[0];
  const total = Number(row?.total ?? 0);
  if (total > cap) cappedCounts.set(db, key, nowMs() + CAPPED_COUNT_TTL_MS);
  else {
    cappedCounts.delete(db, key);
    if (stamp !== undefined) stampedCounts.set(db, key, { stamp, n: total, until: nowMs() + CAPPED_COUNT_TTL_MS });
  }
  return total;
}
