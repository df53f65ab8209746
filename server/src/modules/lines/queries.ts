import type { Deps } from '../../deps.ts';
import { appError, validation } from '../../http/errors.ts';
import { type Order, parseOrder, TEXT_SEARCH_COUNT_CAP, cursorOf } from '../../http/paging.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import { SEARCH_INDEX_MAX, type TextSearchPath, commonInWalk, sampledMatches, searchIndexMatches, trigramMatches } from '../../repos/line-filters-repo.ts';
import { keptPerHandle } from '../../db/kept.ts';
import { type OwnerWalk, countVisibleLines, isTopLevel, resellerIdByUsername, visibleLines, linesChangeStamp } from '../../repos/scope-repo.ts';
import type { AuthUser } from '../../domain/auth-user.ts';

import * as repo from './repo.ts';

// The sorts the users table offers: each has an index in its order (migration 029). Sorting by
// password, notes, WhatsApp, screens, status or system helped nobody (the filters find those
// lines) and would have needed an index each; docs/decisions.md. The `order_by` schema is built from the keys.
export const ORDER_FIELDS: Record<string, string> = {
  id: 'ln.id',
  username: 'ln.username',
  created_at: 'ln.created_at',
  exp_date: 'ln.exp_date',
  master_username: 'o.username',
};
const DEFAULT_ORDER: Order = { column: 'ln.id', direction: 'desc' };

export type ListQuery = repo.LineFilters & { page?: number; per?: number; order_by?: string; tz_offset?: number; after?: string; before?: string };

const isLarge = ({ database }: Deps, actor: AuthUser) => database.dialect === 'sqlite' && repo.isLargeScope(database.db, actor);

/** The list's filters as the repo takes them (date range and owner resolved), shared with the export. */
export async function resolveFilters(deps: Deps, actor: AuthUser, q: ListQuery) {
  let createdAt: [number, number] | undefined;
  if (q.created) {
    const range = repo.createdRange(q.created, q.tz_offset ?? 0);
    if (!range) throw validation('created', 'must be YYYY-MM-DD or YYYY-MM-DD,YYYY-MM-DD');
    createdAt = range;
  }
  let resellerId: number | undefined;
  if (q.reseller) {
    // The owner filter only resolves inside the caller's subtree; anything else matches nothing.
    resellerId = (await resellerIdByUsername(deps.database.db, q.reseller)) ?? -1;
  }
  const scanInOrder = await isLarge(deps, actor);
  // A top-level master's subtree is one range of its lines_top_* indexes, one per sort.
  const topLevel = actor.type === 'master' && resellerId === undefined && (await isTopLevel(deps.database.db, actor));
  const search = q.text_search ? await textSearchPath(deps, actor, q.text_search, topLevel) : undefined;
  const selective = q.id !== undefined || !!q.username || resellerId !== undefined || search === 'fts';
  // A broad filter's page may walk the sort's index (list()); a selective one reads its matches
  // through its own index and sorts them. `hints`: SQLite needs them to walk (unary +).
  return { createdAt, resellerId, scanInOrder, broad: !selective, hints: deps.database.dialect === 'sqlite', search, top: topLevel };
}

/**
 * Through the trigram index for a rare term, walking for a common one (repos/line-filters-repo.ts). The
 * choice is kept per caller and term for 10 s, like the capped counts: finding it reads up to
 * 5,001 index entries or 2,000 lines (2.4 ms on SQLite at 1M lines, more than the page and the
 * kept count), and a search is paged and repeated. Either path gives the same rows; only the time differs.
 */
async function textSearchPath(deps: Deps, actor: AuthUser, term: string, topLevel: boolean): Promise<TextSearchPath> {
  const db = deps.database.db;
  const key = `${actor.id}\u0000${term.toLowerCase()}`;
  const kept = searchPaths.get(db, key);
  if (kept && kept.until > nowMs()) return kept.path;
  // The promise is kept, so concurrent searches of the term wait for one choice.
  const path = chooseSearchPath(deps, actor, term, topLevel);
  searchPaths.set(db, key, { path, until: nowMs() + SEARCH_PATH_KEPT_MS });
  path.catch(() => {
    if (searchPaths.get(db, key)?.path === path) searchPaths.delete(db, key);
  });
  return path;
}
const SEARCH_PATH_KEPT_MS = 10_000;
const searchPaths = keptPerHandle<string, { path: Promise<TextSearchPath>; until: number }>(1_000);

async function chooseSearchPath({ database }: Deps, actor: AuthUser, term: string, topLevel: boolean): Promise<TextSearchPath> {
  if (database.dialect === 'sqlite') {
    const n = await searchIndexMatches(database.db, term);
    return n !== undefined && n <= SEARCH_INDEX_MAX ? 'fts' : undefined;
  }
  if ([...term].length < 3) return 'walk'; // no trigram holds it
  if (await commonInWalk(database.db, visibleLines(database.db, actor, false, topLevel), term)) return 'walk';
  // Rare in the newest lines, but maybe not overall. The trigram path reads every candidate
  // (~6 µs each); a walk of a term rare in the scope reads the whole scope (~1.6 µs a line). At
  // 1M lines: a top master's "x99" (8,000 candidates, 803 its own) 48 ms by trigram, 160 ms walking;
  // the admin's term in 25 % of older lines 2 s by trigram. So the trigram path while the
  // candidates stay under a tenth of the scope (at least SEARCH_INDEX_MAX). Counting them up to
  // that limit costs the limit's worth of rows (a second at 100,000), so a term the page sample
  // puts far past it walks without counting.
  const limit = Math.max(SEARCH_INDEX_MAX, Math.floor((await countVisibleLines(database.db, actor)) / 10));
  if ((await sampledMatches(database.db, term)) > 2 * limit) return 'walk';
  return (await trigramMatches(database.db, term, limit)) <= limit ? 'trgm' : 'walk';
}

export async function list(deps: Deps, actor: AuthUser, q: ListQuery) {
  const db = deps.database.db;
  const opts = await resolveFilters(deps, actor, q);
  // One owner's lines (the reseller filter) by their owner are in id order.
  const asked = parseOrder(q.order_by, ORDER_FIELDS, DEFAULT_ORDER);
  const order = asked.column === 'o.username' && opts.resellerId !== undefined ? { ...asked, column: 'ln.id' } : asked;
  const unfiltered = [q.id, q.username, q.text_search, q.reseller, q.created, q.type_user, q.status].every((v) => v === undefined || v === '');
  const at = nowSec();
  // With more matches than the count's cap (`many`) the page walks the sort's index, testing the
  // filters on its entries (each holds every filter column) and stopping after the page; with
  // fewer, it reads the matches through the narrowest index and sorts them: a walk would read the
  // index to its end for a few thousand matches. A text search always walks (see textSearchPath).
  // A walk by the owner's username goes owner by owner (ownerFirst), its page's keys found on the
  // indexes alone, then its rows fetched (repo.pageLines).
  // On SQLite (hints) a page that does not walk sorts its matches (no index may serve the ORDER BY:
  // SQLite would walk one to skip the sort), and a selective filter's index is the only one its
  // other filters may use.
  const walks = (many: boolean) => opts.broad && (many || !!q.text_search);
  // (PostgreSQL walks a text search's owners its own way: the test reads each line's row)
  // (`direction`: the way the page is read, which is the reverse of the order for a page read from
  // its end or from a `before` cursor; db/paginate.ts)
  const ownerFirst = (many: boolean, direction = order.direction): OwnerWalk =>
    order.column === 'o.username' && walks(many) && (opts.hints || !many || q.text_search ? 'cross-join' : `lateral ${direction}`);
  const walkOf = (many: boolean) => (!opts.hints ? undefined : walks(many) ? order.column : opts.broad ? undefined : 'none');
  const page = (many: boolean, direction: 'asc' | 'desc') =>
    repo.filtered(db, actor, q, at, { ...opts, walk: walkOf(many), scanInOrder: opts.scanInOrder && walks(many), ownerFirst: ownerFirst(many, direction) });
  return repo.pageLines(db, page, {
    ownerFirst,
    sortMatches: (many) => opts.hints && !walks(many),
    page: q.page,
    per: q.per,
    order,
    cursor: cursorOf(q),
    total: unfiltered ? () => countVisibleLines(db, actor) : undefined,
    // The capped count takes no walk hints: it reads the matches through the narrowest index
    // (an owner's range, a partial index), where the page walks the sort order. Text search reads
    // every candidate row anyway, so its count walks like the page (rows in id order, not one
    // random read per line of each owner).
    count: q.text_search ? repo.filtered(db, actor, q, at, { ...opts, walk: opts.broad && opts.hints ? 'ln.id' : undefined }) : repo.filtered(db, actor, q, at, { ...opts, scanInOrder: false, top: false }),
    countCap: q.text_search ? TEXT_SEARCH_COUNT_CAP : undefined,
    // an exact count under the cap (an owner's lines, a username prefix) is kept until a line in
    // the caller's scope changes
    countStamp: () => linesChangeStamp(db, actor),
  });
}

/** The list's rows for an export: every match in id order, streamed (same filters and scope as `list`). */
export async function exportRows(deps: Deps, actor: AuthUser, q: ListQuery) {
  const db = deps.database.db;
  const opts = await resolveFilters(deps, actor, q);
  return repo.iterateLines(db, actor, q, nowSec(), { ...opts, walk: opts.broad && opts.hints ? 'ln.id' : undefined });
}

export async function get({ database }: Deps, actor: AuthUser, id: number) {
  const row = await repo.findVisibleLine(database.db, actor, id);
  if (!row) throw appError('NOT_FOUND', { params: { what: 'User' } });
  return row;
}

export async function selectSearch({ database }: Deps, actor: AuthUser, search: string) {
  const rows = await repo.searchVisibleLines(database.db, actor, search);
  return { data: rows.map((r) => ({ label: r.username, value: String(r.id) })) };
}

/** Non-trial, enabled, still-valid lines by expiry: what to renew next. */
export async function expiring(deps: Deps, actor: AuthUser, q: { order?: 'asc' | 'desc'; page?: number; per?: number; after?: string; before?: string }) {
  const db = deps.database.db;
  const at = nowSec();
  const base = repo.expiringLines(db, actor, at, await isLarge(deps, actor));
  const count = repo.expiringLines(db, actor, at, false);
  return repo.pageLines(db, base, { page: q.page, per: q.per, order: { column: 'ln.exp_date', direction: q.order ?? 'asc' }, cursor: cursorOf(q), count });
}
