import { type ExpressionBuilder, sql } from 'kysely';
import type { AuthUser } from '../domain/auth-user.ts';
import { keptPerHandle } from '../db/kept.ts';
import type { Tx } from '../db/tx.ts';

/**
 * What a caller may reach, as query fragments every module's repo composes (never loaded into
 * memory). Admins reach everyone; masters their subtree; `includeSelf` adds the caller (reads of
 * one's own record and history).
 */
export function subtreeIds(db: Tx, ancestorId: number, includeSelf: boolean) {
  return db
    .selectFrom('reseller_tree')
    .select('reseller_tree.descendant_id')
    .where('reseller_tree.ancestor_id', '=', ancestorId)
    .where('reseller_tree.depth', '>=', includeSelf ? 0 : 1);
}

/**
 * The same reach for ONE row: `ref` (the row's owner column) is in the caller's subtree, as an
 * EXISTS probe of reseller_tree's key. `x in (subtreeIds)` builds the caller's whole subtree
 * list first (45-65 µs for a master's ~100 resellers on SQLite, on every spend's visibility
 * check); lists keep the IN, which pays that once for the page.
 */
export function inSubtree(db: Tx, ancestorId: number, ref: 'ln.member_id', includeSelf: boolean) {
  return (eb: ExpressionBuilder<any, any>) =>
    eb.exists(
      db
        .selectFrom('reseller_tree')
        .select(sql.lit(1).as('one'))
        .where('reseller_tree.ancestor_id', '=', ancestorId)
        .whereRef('reseller_tree.descendant_id', '=', sql.ref<number>(ref) as never)
        .where('reseller_tree.depth', '>=', includeSelf ? 0 : 1),
    );
}

/**
 * Is reseller `id` in the subtree of `ancestorId`: one probe of reseller_tree's key. A read of one
 * reseller asks it first, on its own: as an EXISTS beside the row's sub-reseller count, SQLite
 * 3.53 spent ~30 µs more on the row (38 against 2 + 6 µs; every credit transfer reads one).
 */
export async function isInSubtree(db: Tx, ancestorId: number, id: number, includeSelf: boolean): Promise<boolean> {
  const row = await db.selectFrom('reseller_tree').select('depth').where('ancestor_id', '=', ancestorId).where('descendant_id', '=', id).executeTakeFirst();
  return row !== undefined && row.depth >= (includeSelf ? 0 : 1);
}

/**
 * Lines the caller may reach: its own and its whole subtree's (all for admins), never deleted ones.
 * `scanInOrder` keeps SQLite from using the owner index (unary +), so a page of a large subtree
 * walks the sort order and stops after a few rows instead of sorting the whole subtree; PostgreSQL's
 * planner makes that choice itself from its statistics.
 *
 * `ownerFirst` (pages walked in the owner's username order): the owners in username order, then
 * each one's lines in id order, so a page stops after its rows instead of sorting every match.
 * 'cross-join': SQLite keeps a CROSS JOIN's loop order. 'lateral': PostgreSQL's planner would
 * rather hash the owners and sort every match (88 ms for a master's trial lines, page 200); each
 * owner's lines as a LATERAL subquery in id order fix the walk (5 ms). The filters added on `ln`
 * are pushed down into that subquery, where lines_member_id holds them all, so the page's keys
 * come from that index alone (lines/repo.ts pageLines fetches the rows).
 */
export type OwnerWalk = false | 'cross-join' | 'lateral asc' | 'lateral desc';
export function visibleLines(db: Tx, actor: AuthUser, scanInOrder = false, top = false, ownerFirst: OwnerWalk = false) {
  if (ownerFirst === 'lateral asc' || ownerFirst === 'lateral desc') return ownerLateralLines(db, actor, ownerFirst === 'lateral asc' ? 'asc' : 'desc');
  // (CROSS JOIN: the scope then limits the owners)
  const q = ownerFirst
    ? (db.selectFrom('resellers as o').crossJoin('lines as ln').whereRef('ln.member_id', '=', 'o.id').where('ln.deleted_at', 'is', null) as unknown as ReturnType<typeof liveLines>)
    : liveLines(db);
  // `top`: the caller is right under the root admin, so its subtree is every line whose
  // top_reseller_id is the caller (one range of lines_top_id, in id order).
  if (top && !ownerFirst) return q.where('ln.top_reseller_id', '=', actor.id);
  if (actor.type !== 'admin') {
    // (unary +: the owners are walked in username order and tested, not fetched from the subtree list)
    if (ownerFirst) return q.where(sql`+o.id`, 'in', subtreeIds(db, actor.id, true));
    return q.where(scanInOrder ? sql`+ln.member_id` : sql.ref('ln.member_id'), 'in', subtreeIds(db, actor.id, true));
  }
  return q;
}

function ownerLateralLines(db: Tx, actor: AuthUser, direction: 'asc' | 'desc') {
  const lines = db.selectFrom('lines as l').selectAll('l').whereRef('l.member_id', '=', sql.ref('o.id')).where('l.deleted_at', 'is', null).orderBy('l.id', direction).as('ln');
  // The admin's owners are every reseller: walked on resellers_username, planned with the page's
  // LIMIT. A subtree's owners are a sorted subquery (planned on its own, it keeps its order):
  // joined to the subtree list otherwise, they would be hashed and every match sorted.
  const owners =
    actor.type === 'admin'
      ? db.selectFrom('resellers as o')
      : db.selectFrom(
          db.selectFrom('resellers as o').select(['o.id', 'o.username']).where('o.id', 'in', subtreeIds(db, actor.id, true)).orderBy('o.username', direction).as('o'),
        );
  return owners.crossJoinLateral(lines) as unknown as ReturnType<typeof liveLines>;
}

const liveLines = (db: Tx) => db.selectFrom('lines as ln').where('ln.deleted_at', 'is', null);

/** One line by id, if the caller may reach it (the one-row probe above, not the subtree list). */
export function visibleLine(db: Tx, actor: AuthUser, id: number) {
  const q = db.selectFrom('lines as ln').where('ln.deleted_at', 'is', null).where('ln.id', '=', id);
  return actor.type === 'admin' ? q : q.where(inSubtree(db, actor.id, 'ln.member_id', true));
}

/** P2P accounts the caller may reach: like lines, its own and its whole subtree's, never deleted ones. */
export function visibleP2pAccounts(db: Tx, actor: AuthUser) {
  let q = db.selectFrom('p2p_accounts as pa').where('pa.deleted_at', 'is', null);
  if (actor.type !== 'admin') q = q.where('pa.member_id', 'in', subtreeIds(db, actor.id, true));
  return q;
}

/**
 * Is the caller right under the root admin (its subtree's lines and log rows carry its id as their
 * top reseller)? Known from the session check; asked of the tree otherwise.
 */
export async function isTopLevel(db: Tx, actor: AuthUser): Promise<boolean> {
  if (actor.topLevel !== undefined) return actor.topLevel;
  const row = await db.selectFrom('reseller_tree').select((eb) => eb.fn.max('depth').as('d')).where('descendant_id', '=', actor.id).executeTakeFirst();
  return Number(row?.d) === 1;
}

/** Escapes LIKE wildcards; the patterns using it say `escape '\'`. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Exclusive upper bound of the strings that start with `prefix` (for an index range), or undefined
 * when its last character is U+FFFF and none can be written (one past it would be a NUL, which
 * PostgreSQL refuses): the range is then open-ended and the LIKE beside it decides.
 */
export function afterPrefix(prefix: string): string | undefined {
  const last = prefix.charCodeAt(prefix.length - 1);
  return last >= 0xffff ? undefined : prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** Live lines in the caller's scope, from the trigger-kept counters (no scan of the lines table). */
export async function sumVisibleLines(db: Tx, actor: AuthUser): Promise<number> {
  let q = db.selectFrom('resellers').select(sql<number>`coalesce(sum(lines_count), 0)`.as('n'));
  if (actor.type !== 'admin') q = q.where('id', 'in', subtreeIds(db, actor.id, true));
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

/** The same total, kept between requests while nothing in the caller's scope changed (below). */
export async function countVisibleLines(db: Tx, actor: AuthUser): Promise<number> {
  const stamp = await linesChangeStamp(db, actor);
  const kept = keptTotals.get(db, actor.id);
  if (stamp !== undefined && kept?.stamp === stamp) return kept.n;
  const n = await sumVisibleLines(db, actor);
  if (stamp !== undefined) keptTotals.set(db, actor.id, { stamp, n });
  return n;
}

/**
 * A caller's total is kept per database handle while its dashboard-cache stamp stays put. Every
 * change to a line moves, in its own transaction, the stamp of the owner's ancestors and of the
 * admins (dashboard/repo.ts stampInvalidated), so an unchanged stamp means an unchanged total;
 * the stamp is read before the sum, so a change committing in between only costs a recount.
 * The admin's sum read all 10,000 reseller rows on each page of the lines list: on PostgreSQL a
 * sequential scan (2-3 ms, the admin's first page 238 req/s), now one primary-key read.
 */
const keptTotals = keptPerHandle<number, { stamp: number; n: number }>(10_000);

/**
 * What moves whenever a line in the caller's scope changes (see countVisibleLines and the lines
 * list's kept counts, db/paginate.ts countStamp).
 *
 * One row, two jobs: this stamp is the caller's dashboard_cache.invalidated_at. The dashboard
 * cache (modules/dashboard) moves it, inside every changing transaction, for the owner's
 * ancestors and the admins, to drop their cached answers (stampInvalidated); the lines lists read
 * the same column as "has anything in my scope changed since I counted". Both need exactly the
 * same event (a line of my subtree changed, in the changing transaction), so one stamp serves
 * both; a change to when the dashboard stamps must keep stamping on every line change, or the
 * lines lists' totals go stale.
 *
 * A caller nothing has stamped yet (no line changed in its scope since the database was filled)
 * gets its row now, unstamped (0), and undefined this time: a stamp only ever moves forward from
 * there, and nothing counted with this request is kept, so no change can slip between. That
 * insert is the one write on this read path: idempotent (ON CONFLICT DO NOTHING), once per
 * reseller, the same row the dashboard's own cache would create.
 */
export async function linesChangeStamp(db: Tx, actor: AuthUser): Promise<number | undefined> {
  const row = await db.selectFrom('dashboard_cache').select('invalidated_at').where('reseller_id', '=', actor.id).executeTakeFirst();
  if (row) return Number(row.invalidated_at);
  await db
    .insertInto('dashboard_cache')
    .values({ reseller_id: actor.id, computed_at: 0, body: null })
    .onConflict((oc) => oc.column('reseller_id').doNothing())
    .execute();
  return undefined;
}

/** The id of a reseller by its username (any case), wherever it is in the tree (the lists' owner filter). */
export async function resellerIdByUsername(db: Tx, username: string): Promise<number | undefined> {
  const row = await db.selectFrom('resellers').select('id').where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase())).executeTakeFirst();
  return row?.id;
}
