import { sql } from 'kysely';
import { keysetRows, mapRows } from '../../db/keyset.ts';
import type { Tx } from '../../db/tx.ts';
import { type Order, paginate } from '../../http/paging.ts';
import type { AuthUser } from '../auth/service.ts';
import { countVisibleLines, escapeLike, visibleLines } from '../../db/scope.ts';

export interface LineFilters {
  id?: number;
  username?: string;
  text_search?: string;
  reseller?: string;
  created?: string;
  type_user?: 'normal' | 'trial';
  status?: 0 | 1 | 3 | 4;
}

export interface LineRow {
  id: number;
  username: string;
  password: string;
  created_at: number;
  exp_date: number;
  master_username: string | null;
  member_id: number;
  reseller_notes: string | null;
  whatsapp: string | null;
  max_connections: number;
  enabled: number;
  is_trial: number;
  system: number;
  package_id: number | null;
  bouquet: string[];
  last_extended_at: number | null;
}

/** Does the caller's subtree hold at least 1/20 of all lines? (from the counters, no scan) */
export async function isLargeScope(db: Tx, actor: AuthUser): Promise<boolean> {
  if (actor.type === 'admin') return false;
  const [mine, all] = await Promise.all([countVisibleLines(db, actor), countVisibleLines(db, { ...actor, type: 'admin' })]);
  return mine * 20 >= all && all > 10_000;
}

const COLUMNS = [
  'ln.id',
  'ln.username',
  'ln.password',
  'ln.created_at',
  'ln.exp_date',
  'o.username as master_username',
  'ln.member_id',
  'ln.reseller_notes',
  'ln.whatsapp',
  'ln.max_connections',
  'ln.enabled',
  'ln.is_trial',
  'ln.system',
  'ln.package_id',
  'ln.bouquet',
  'ln.last_extended_at',
] as const;

export const toLineRow = (r: Omit<LineRow, 'bouquet'> & { bouquet: string }): LineRow => ({ ...r, bouquet: JSON.parse(r.bouquet) });

/**
 * "2026-01-31" or "2026-01-01,2026-01-31" (inclusive days in the caller's time zone, given as
 * minutes east of UTC) -> [from, to) epoch seconds.
 */
export function createdRange(raw: string, tzOffsetMinutes = 0): [number, number] | null {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length < 1 || parts.length > 2 || parts.some((p) => !/^\d{4}-\d{2}-\d{2}$/.test(p))) return null;
  const from = Date.parse(`${parts[0]}T00:00:00Z`) / 1000 - tzOffsetMinutes * 60;
  const to = Date.parse(`${parts[parts.length - 1]}T00:00:00Z`) / 1000 + 86_400 - tzOffsetMinutes * 60;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) return null;
  return [from, to];
}

/** Exclusive upper bound of the strings that start with `prefix` (for an index range). */
const afterPrefix = (prefix: string) => prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/**
 * The filtered list query. `walkOrder` (SQLite, sorted by id, no selective filter) keeps SQLite from
 * using the status/date indexes (unary +): walking the primary key finds a page of a broad filter
 * in a few rows, where the index would have to sort every match first.
 */
export function filtered(
  db: Tx,
  actor: AuthUser,
  f: LineFilters,
  now: number,
  opts: { createdAt?: [number, number]; resellerId?: number; scanInOrder?: boolean; walkOrder?: boolean } = {},
) {
  const { createdAt, resellerId } = opts;
  const col = (name: string) => (opts.walkOrder ? sql`+${sql.ref(name)}` : sql.ref(name));
  let q = visibleLines(db, actor, !!opts.scanInOrder && resellerId === undefined);
  if (f.id !== undefined) q = q.where('ln.id', '=', f.id);
  if (f.username) {
    // Case-insensitive prefix as a range on the lower(username) index, then LIKE for exact
    // prefix semantics whatever the collation.
    const prefix = f.username.toLowerCase();
    q = q
      .where(sql`lower(ln.username)`, '>=', prefix)
      .where(sql`lower(ln.username)`, '<', afterPrefix(prefix))
      .where(sql`lower(ln.username)`, 'like', sql`${`${escapeLike(prefix)}%`} escape '\\'`);
  }
  if (f.text_search) {
    const pattern = `%${escapeLike(f.text_search.toLowerCase())}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(ln.username)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(ln.reseller_notes)`, 'like', sql`${pattern} escape '\\'`),
        eb('ln.whatsapp', 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (resellerId !== undefined) q = q.where('ln.member_id', '=', resellerId);
  if (createdAt) q = q.where(col('ln.created_at'), '>=', createdAt[0]).where(col('ln.created_at'), '<', createdAt[1]);
  if (f.type_user) q = q.where(col('ln.is_trial'), '=', f.type_user === 'trial' ? 1 : 0);
  if (f.status === 1) q = q.where(col('ln.enabled'), '=', 1).where(col('ln.exp_date'), '>', now);
  if (f.status === 4) q = q.where(col('ln.exp_date'), '>', now);
  if (f.status === 3) q = q.where(col('ln.exp_date'), '<=', now);
  if (f.status === 0) q = q.where(col('ln.enabled'), '=', 0);
  return q;
}

export async function pageLines(db: Tx, q: ReturnType<typeof visibleLines>, paging: { page?: number; per?: number; order: Order; total?: () => Promise<number> }) {
  // The owner join only on the page itself: counts never pay for it (SQLite does not drop it).
  const res = await paginate<Omit<LineRow, 'bouquet'> & { bouquet: string }>(
    q,
    (b) => (b as typeof q).leftJoin('resellers as o', 'o.id', 'ln.member_id').select(COLUMNS as never) as never,
    { ...paging, db, tiebreak: 'ln.id' },
  );
  return { ...res, data: res.data.map(toLineRow) };
}

/** Every line of a filtered query in id order, a batch at a time (exports). */
export function iterateLines(db: Tx, actor: AuthUser, f: LineFilters, now: number, opts: Parameters<typeof filtered>[4], batch = 1000): AsyncGenerator<LineRow> {
  const rows = keysetRows(
    (last, limit) =>
      filtered(db, actor, f, now, opts)
        .where('ln.id', '>', last)
        .leftJoin('resellers as o', 'o.id', 'ln.member_id')
        .select(COLUMNS)
        .orderBy('ln.id')
        .limit(limit)
        .execute() as Promise<(Omit<LineRow, 'bouquet'> & { bouquet: string })[]>,
    batch,
  );
  return mapRows(rows, toLineRow);
}

export async function findVisibleLine(db: Tx, actor: AuthUser, id: number): Promise<LineRow | undefined> {
  const row = await visibleLines(db, actor).leftJoin('resellers as o', 'o.id', 'ln.member_id').select(COLUMNS).where('ln.id', '=', id).executeTakeFirst();
  return row ? toLineRow(row as never) : undefined;
}

export async function usernameExists(db: Tx, username: string): Promise<boolean> {
  return (await db.selectFrom('lines').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;
}

export async function trialsSince(db: Tx, memberId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('lines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('member_id', '=', memberId)
    .where('is_trial', '=', 1)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function searchVisibleLines(db: Tx, actor: AuthUser, search: string) {
  return visibleLines(db, actor)
    .select(['ln.id', 'ln.username'])
    .where(sql`lower(ln.username)`, 'like', sql`${`${escapeLike(search.toLowerCase())}%`} escape '\\'`)
    .orderBy('ln.username')
    .limit(20)
    .execute();
}

/** Non-trial, enabled, still-valid lines: what to renew next. */
export const expiringLines = (db: Tx, actor: AuthUser, now: number, scanInOrder: boolean) =>
  visibleLines(db, actor, scanInOrder).where('ln.is_trial', '=', 0).where('ln.enabled', '=', 1).where('ln.exp_date', '>', now);

/** The id of a reseller by its username (any case), wherever it is in the tree. */
export async function resellerIdByUsername(db: Tx, username: string): Promise<number | undefined> {
  const row = await db.selectFrom('resellers').select('id').where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase())).executeTakeFirst();
  return row?.id;
}
