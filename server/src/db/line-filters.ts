import { sql } from 'kysely';
import type { AuthUser } from '../modules/auth/service.ts';
import { escapeLike, visibleLines } from './scope.ts';
import type { Tx } from './tx.ts';

/** The user list's filters (SPEC: id, username, text_search, reseller, created, type_user, status). */
export interface LineFilters {
  id?: number;
  username?: string;
  text_search?: string;
  reseller?: string;
  created?: string;
  type_user?: 'normal' | 'trial';
  status?: 0 | 1 | 3 | 4;
}

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
  opts: { createdAt?: [number, number]; resellerId?: number; scanInOrder?: boolean; walkOrder?: boolean; top?: boolean } = {},
) {
  const { createdAt, resellerId } = opts;
  const col = (name: string) => (opts.walkOrder ? sql`+${sql.ref(name)}` : sql.ref(name));
  let q = visibleLines(db, actor, !!opts.scanInOrder && resellerId === undefined, !!opts.top && resellerId === undefined);
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
  // Flags are literals: the partial indexes (lines_blocked, lines_trial, lines_renewable_exp) are
  // then chosen once per statement text (a bound flag makes SQLite re-prepare the cached statement
  // whenever its value changes, and a generic PostgreSQL plan could not use them). The sparse ones
  // keep their index even in a walk.
  if (f.type_user === 'trial') q = q.where('ln.is_trial', '=', sql.lit(1));
  if (f.type_user === 'normal') q = q.where(col('ln.is_trial'), '=', sql.lit(0));
  if (f.status === 1) q = q.where(col('ln.enabled'), '=', sql.lit(1)).where(col('ln.exp_date'), '>', now);
  if (f.status === 4) q = q.where(col('ln.exp_date'), '>', now);
  if (f.status === 3) q = q.where(col('ln.exp_date'), '<=', now);
  if (f.status === 0) q = q.where('ln.enabled', '=', sql.lit(0));
  return q;
}
