import { createHash } from 'node:crypto';
import { PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
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
  /** the cursor after the page's last row (`after` for the pages that follow) */
  next?: string;
  /** the cursor before the page's first row (`before` for the pages that precede) */
  prev?: string;
}

/**
 * A page asked with a cursor (the API's `after` / `before`, which the previous answer's
 * `meta.next` / `meta.prev` gave). `filters`: the request's query; a cursor made under other
 * filters or another order is ignored (the page comes by its number, as without one).
 */
export interface PageCursor {
  after?: string;
  before?: string;
  filters?: Record<string, unknown>;
}

/**
 * How far past a cursor a page may be and still be read from it (rows skipped by OFFSET after the
 * cursor's seek): the pager's neighbouring pages, not a jump across the list.
 */
export const CURSOR_SKIP_MAX = 1_000;

/**
 * One walk of the list: `order` in the direction read (the list's, or reversed), `seek` the row
 * the walk starts after (exclusive), `offset` rows skipped from there, `limit` rows read.
 */
interface Walk {
  order: Order;
  seek?: { v: unknown; id: unknown };
  offset: number;
  limit: number;
  reversed: boolean;
}

/**
 * Runs the count and the page of a filtered query; both in SQL, nothing loaded whole. `countBase`:
 * the same rows as `base`, shaped for counting (it may reach them through another index).
 * `deferred`: the page's keys are paged on `base` alone (an index walk, no joins, no wide rows
 * skipped by OFFSET), then `deferred` fetches the rows of those keys (`page_key`). `base` may be
 * chosen by the count: `many` when more rows match than the count's cap (or the exact total), and
 * by the direction the page is read in (`direction`, the order's or its reverse).
 *
 * Deep pages: OFFSET reads every row it skips (page 500 of 100 is 50,000 index entries, 20-25 ms
 * on PostgreSQL, five times a first page). So a page is read the cheapest of three ways: from the
 * start (OFFSET (page - 1) * per); from the end in reverse order when the total is exact and the
 * page is nearer the end; or from a cursor (`opts.cursor`, a keyset seek on the sort's index to
 * the row next to the page, then at most CURSOR_SKIP_MAX rows of OFFSET). Every answer carries the
 * cursors of its first and last rows (`meta.prev`, `meta.next`).
 */
export async function paginate<R>(
  base: SelectQueryBuilder<any, any, any> | ((many: boolean, direction: 'asc' | 'desc') => SelectQueryBuilder<any, any, any>),
  select: (q: SelectQueryBuilder<any, any, any>, many: boolean) => SelectQueryBuilder<any, any, R>,
  opts: {
    db: Tx;
    page?: number;
    per?: number;
    order: Order;
    tiebreak: string;
    cursor?: PageCursor;
    total?: () => Promise<number>;
    countBase?: SelectQueryBuilder<any, any, any>;
    deferred?: (keys: SelectQueryBuilder<any, any, any>) => SelectQueryBuilder<any, any, R>;
    /** with `deferred`: whether the page of this `many` is deferred (default: always) */
    deferIf?: (many: boolean) => boolean;
    /**
     * with `deferred`: the page's keys (`page_key`) found some other way than walking `base`: the
     * walk's order, `seek` to apply to each query reading the order's columns, OFFSET and LIMIT
     */
    keys?: (walk: { order: Order; seek: <Q extends SelectQueryBuilder<any, any, any>>(q: Q) => Q; offset: number; per: number }) => SelectQueryBuilder<any, any, any>;
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
  const baseFor = (many: boolean, direction: 'asc' | 'desc') => (typeof base === 'function' ? base(many, direction) : base);
  const counted = opts.total
    ? await opts.total()
    : await countRows(opts.db, opts.countBase ?? baseFor(true, opts.order.direction), cap, opts.countStamp);
  const capped = !opts.total && counted > cap;
  const total = capped ? cap : counted;
  const many = counted > cap;
  const stamp = cursorStamp(opts.order, opts.cursor?.filters);
  const walk = chooseWalk(page, per, capped ? undefined : total, opts.order, stamp, opts.cursor);
  let rows: (R & CursorColumns)[] = [];
  try {
    // (a page past the end of an exact total has no rows: nothing to read, where OFFSET would
    // read every match to find none)
    if (capped || (page - 1) * per < total) rows = await readWalk(baseFor, select, opts, many, walk);
  } catch (err) {
    // A cursor whose value does not fit its column (a forged one: PostgreSQL refuses to compare a
    // bigint with text, class 22) is ignored like any other foreign cursor.
    if (!walk.seek || !String((err as { code?: unknown }).code ?? '').startsWith('22')) throw err;
    rows = await readWalk(baseFor, select, opts, many, chooseWalk(page, per, capped ? undefined : total, opts.order, stamp, undefined));
  }
  if (walk.reversed) rows.reverse();
  const start = (page - 1) * per;
  const first = rows[0];
  const last = rows[rows.length - 1];
  const data = rows.map(({ cursor_v: _v, cursor_id: _id, ...row }) => row as unknown as R);
  const figures: PageFigures = { page, per, count: data.length, pages: Math.ceil(total / per), total, ...(capped ? { capped } : {}) };
  // (a short page is the last: no rows follow it)
  if (last && data.length === walk.limit && (capped || start + data.length < total)) figures.next = encodeCursor(['a', stamp, start + data.length, last.cursor_v, last.cursor_id]);
  if (first && page > 1) figures.prev = encodeCursor(['b', stamp, start, first.cursor_v, first.cursor_id]);
  return { data, meta: figures };
}

interface CursorColumns {
  cursor_v: unknown;
  cursor_id: unknown;
}

/** The cheapest walk to the page: from the start, from the end (exact totals), or from a cursor. */
function chooseWalk(page: number, per: number, exactTotal: number | undefined, order: Order, stamp: string, cursor: PageCursor | undefined): Walk {
  const start = (page - 1) * per;
  const reverse: Order = { ...order, direction: order.direction === 'asc' ? 'desc' : 'asc' };
  let best: Walk = { order, offset: start, limit: per, reversed: false };
  if (exactTotal !== undefined) {
    const end = Math.min(page * per, exactTotal);
    if (end > start && exactTotal - end < best.offset) best = { order: reverse, offset: exactTotal - end, limit: end - start, reversed: true };
  }
  const after = decodeCursor(cursor?.after, 'a', stamp);
  // (after: rows past the cursor's row; before: rows ahead of it, read in reverse)
  if (after && start >= after.n && start - after.n <= CURSOR_SKIP_MAX && start - after.n < best.offset) {
    best = { order, seek: after, offset: start - after.n, limit: per, reversed: false };
  }
  const before = decodeCursor(cursor?.before, 'b', stamp);
  if (before && page * per <= before.n && before.n - page * per <= CURSOR_SKIP_MAX && before.n - page * per < best.offset) {
    best = { order: reverse, seek: before, offset: before.n - page * per, limit: per, reversed: true };
  }
  return best;
}

async function readWalk<R>(
  baseFor: (many: boolean, direction: 'asc' | 'desc') => SelectQueryBuilder<any, any, any>,
  select: (q: SelectQueryBuilder<any, any, any>, many: boolean) => SelectQueryBuilder<any, any, R>,
  opts: Parameters<typeof paginate<R>>[2],
  many: boolean,
  walk: Walk,
): Promise<(R & CursorColumns)[]> {
  const { order } = walk;
  const key = (column: string) => (opts.sortMatches?.(many) ? sql`+${sql.ref(column)}` : sql.ref(column));
  const ordered = <Q extends SelectQueryBuilder<any, any, any>>(q: Q) =>
    q.orderBy(key(order.column), order.direction).orderBy(key(opts.tiebreak), order.direction) as Q;
  const withCursor = (q: SelectQueryBuilder<any, any, any>) => q.select([sql.ref(order.column).as('cursor_v'), sql.ref(opts.tiebreak).as('cursor_id')]);
  const pageBase = baseFor(many, order.direction);
  const read = async (where: RawBuilder<boolean> | undefined, offset: number, limit: number) => {
    const seek = <Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q => (where ? (q.where(where) as Q) : q);
    const q =
      opts.deferred && (opts.deferIf?.(many) ?? true)
        ? ordered(
            withCursor(
              opts.deferred(
                opts.keys
                  ? opts.keys({ order, seek, offset, per: limit })
                  : ordered(seek(pageBase).select(sql.ref(opts.tiebreak).as('page_key'))).limit(limit).offset(offset),
              ),
            ),
          )
        : ordered(withCursor(select(seek(pageBase), many))).limit(limit).offset(offset);
    return (await q.execute()) as (R & CursorColumns)[];
  };
  if (!walk.seek) return read(undefined, walk.offset, walk.limit);
  const nullsHigh = opts.db.getExecutor().adapter instanceof PostgresAdapter;
  const [first, then] = seekPast(key(order.column), key(opts.tiebreak), order, walk.seek, nullsHigh, order.column === opts.tiebreak);
  const rows = await read(first, walk.offset, walk.limit);
  if (!then || rows.length === walk.limit) return rows;
  // The first part ran out: the page goes on into the second (past what OFFSET skipped of the first).
  const skipped = rows.length > 0 || walk.offset === 0 ? walk.offset : await countUpTo(pageBase.where(first), walk.offset);
  return [...rows, ...(await read(then, walk.offset - skipped, walk.limit - rows.length))];
}

async function countUpTo(q: SelectQueryBuilder<any, any, any>, n: number): Promise<number> {
  const row = await q.clearSelect().select(sql<number>`1`.as('one')).limit(n).execute();
  return row.length;
}

/**
 * The rows strictly past `at` in the walk's order (`column`, then `tiebreak`, both `order.direction`),
 * as one or two conditions read one after the other: each is an index range, which their OR
 * would not be (SQLite then reads the index from its start; PostgreSQL filters a whole walk).
 * Written as `column >= v and (column > v or id > i)`: the first term is an index range on either
 * engine, which a row comparison `(column, id) > (v, i)` is not on SQLite (and on PostgreSQL only
 * when the index holds both columns in that order). NULLs sort as the highest value on PostgreSQL
 * and the lowest on SQLite, both ways, so a walk meets them after the other rows when ascending on
 * PostgreSQL or descending on SQLite, and before them otherwise.
 */
function seekPast(
  column: RawBuilder<unknown>,
  tiebreak: RawBuilder<unknown>,
  order: Order,
  at: { v: unknown; id: unknown },
  nullsHigh: boolean,
  byTiebreak: boolean,
): [RawBuilder<boolean>, RawBuilder<boolean>?] {
  const past = sql.raw(order.direction === 'asc' ? '>' : '<');
  const from = sql.raw(order.direction === 'asc' ? '>=' : '<=');
  if (byTiebreak) return [sql<boolean>`${tiebreak} ${past} ${at.id}`];
  const nullsAfter = (order.direction === 'asc') === nullsHigh;
  if (at.v === null) {
    const inNulls = sql<boolean>`(${column} is null and ${tiebreak} ${past} ${at.id})`;
    return nullsAfter ? [inNulls] : [inNulls, sql<boolean>`${column} is not null`];
  }
  const range = sql<boolean>`(${column} ${from} ${at.v} and (${column} ${past} ${at.v} or ${tiebreak} ${past} ${at.id}))`;
  return nullsAfter ? [range, sql<boolean>`${column} is null`] : [range];
}

/**
 * What a cursor is bound to: the order and the request's filters (not the page, the page size or
 * the cursors themselves). A cursor is a position in the caller's own rows, not a credential: the
 * scope and filters are applied as always, so it is not signed; one of another order or other
 * filters is ignored rather than refused, so an old link still opens its page by number.
 */
function cursorStamp(order: Order, filters: Record<string, unknown> | undefined): string {
  const kept = Object.entries(filters ?? {})
    .filter(([k, v]) => v !== undefined && v !== '' && !['page', 'per', 'per_page', 'after', 'before'].includes(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([order.column, order.direction, kept])).digest('base64url').slice(0, 12);
}

type CursorBody = ['a' | 'b', string, number, unknown, unknown];

const encodeCursor = (body: CursorBody) => Buffer.from(JSON.stringify(body)).toString('base64url');

/** The cursor's position (`n` rows before it, its row's sort value and id), if it is one of this kind, order and filters. */
function decodeCursor(raw: string | undefined, kind: 'a' | 'b', stamp: string): { n: number; v: unknown; id: unknown } | undefined {
  if (!raw) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(body) || body.length !== 5) return undefined;
  const [k, s, n, v, id] = body as unknown[];
  const scalar = (x: unknown) => x === null || typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x));
  if (k !== kind || s !== stamp || !Number.isSafeInteger(n) || (n as number) < 0 || !scalar(v) || id === null || !scalar(id)) return undefined;
  return { n: n as number, v, id };
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
