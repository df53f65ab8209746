import { sql } from 'kysely';
import { keysetRows, mapRows } from '../../db/keyset.ts';
import type { Tx } from '../../db/tx.ts';
import { type Order, type PageCursor, paginate } from '../../db/paginate.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowMs } from '../../lib/clock.ts';
import { type LineFilters, filtered } from '../../repos/line-filters-repo.ts';
import { type OwnerWalk, countVisibleLines, escapeLike, sumVisibleLines, visibleLine, visibleLines } from '../../repos/scope-repo.ts';

// The list filters are shared SQL (repos/line-filters-repo.ts): the online list filters lines the same way.
export { type LineFilters, createdRange, filtered } from '../../repos/line-filters-repo.ts';

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
  email: string | null;
  /** 1: no expiry reminders for this line */
  opt_out_reminders: number;
  max_connections: number;
  enabled: number;
  is_trial: number;
  system: number;
  package_id: number | null;
  bouquet: string[];
  last_extended_at: number | null;
  /** on the P2P server (system 2/3, or leaving it): synced, pending, failed; null: never P2P */
  sync_state: 'synced' | 'pending' | 'failed' | null;
  sync_error: string | null;
}

// All lines, per database handle, for at most 10 s: the share below only picks a plan hint, and
// summing 10,000 resellers' counters cost every master request 1.5-2 ms (docs/performance.md).
const allLines = new WeakMap<object, { at: number; n: Promise<number> }>();
function totalLines(db: Tx): Promise<number> {
  const kept = allLines.get(db);
  if (kept && nowMs() - kept.at < 10_000) return kept.n;
  const n = sumVisibleLines(db, { id: 0, username: '', type: 'admin', credits: 0, sessionId: 0, twoFactorEnabled: false });
  allLines.set(db, { at: nowMs(), n });
  n.catch(() => allLines.delete(db));
  return n;
}

/** Does the caller's subtree hold at least 1/20 of all lines? (from the counters, no scan) */
export async function isLargeScope(db: Tx, actor: AuthUser): Promise<boolean> {
  if (actor.type === 'admin') return false;
  const [mine, all] = await Promise.all([countVisibleLines(db, actor), totalLines(db)]);
  return mine * 20 >= all && all > 10_000;
}

/** A line's own columns as the lists answer them; the owner's username comes from a join (COLUMNS) or the caller (insertLine). */
export const OWN_COLUMNS = [
  'id',
  'username',
  'password',
  'created_at',
  'exp_date',
  'member_id',
  'reseller_notes',
  'whatsapp',
  'email',
  'opt_out_reminders',
  'max_connections',
  'enabled',
  'is_trial',
  'system',
  'package_id',
  'bouquet',
  'last_extended_at',
  'p2p_sync_state as sync_state',
  'p2p_sync_error as sync_error',
] as const;

const COLUMNS = [...OWN_COLUMNS.map((c) => `ln.${c}` as `ln.${(typeof OWN_COLUMNS)[number]}`), 'o.username as master_username' as const];

export const toLineRow = (r: Omit<LineRow, 'bouquet'> & { bouquet: string }): LineRow => ({ ...r, bouquet: JSON.parse(r.bouquet) });

export async function pageLines(
  db: Tx,
  q: ReturnType<typeof visibleLines> | ((many: boolean, direction: 'asc' | 'desc') => ReturnType<typeof visibleLines>),
  paging: { ownerFirst?: (many: boolean) => OwnerWalk; sortMatches?: (many: boolean) => boolean; page?: number; per?: number; order: Order; cursor?: PageCursor; total?: () => Promise<number>; count?: ReturnType<typeof visibleLines>; countCap?: number; countStamp?: () => Promise<number | undefined> },
) {
  const withOwner = (b: ReturnType<typeof visibleLines>) => b.leftJoin('resellers as o', 'o.id', 'ln.member_id').select(COLUMNS as never) as never;
  // Pages sorted by a line column, or walked owner by owner, find their ids on the indexes alone
  // and fetch those rows only (OFFSET 9,990 skips index entries, not joined rows); the owner join
  // only on the page itself, counts never pay for it (SQLite does not drop it).
  const res = await paginate<Omit<LineRow, 'bouquet'> & { bouquet: string }>(q, (b) => withOwner(b as ReturnType<typeof visibleLines>), {
    ...paging,
    db,
    tiebreak: 'ln.id',
    countBase: paging.count,
    deferred: (keys) => withOwner(db.selectFrom('lines as ln').where('ln.id', 'in', keys as never) as never),
    deferIf: (many) => paging.order.column.startsWith('ln.') || !!paging.ownerFirst?.(many),
  });
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
  const row = await visibleLine(db, actor, id).leftJoin('resellers as o', 'o.id', 'ln.member_id').select(COLUMNS).executeTakeFirst();
  return row ? toLineRow(row as never) : undefined;
}

export function searchVisibleLines(db: Tx, actor: AuthUser, search: string) {
  return visibleLines(db, actor)
    .select(['ln.id', 'ln.username'])
    .where(sql`lower(ln.username)`, 'like', sql`${`${escapeLike(search.toLowerCase())}%`} escape '\\'`)
    .orderBy('ln.username')
    .limit(20)
    .execute();
}

/** Non-trial, enabled, still-valid lines: what to renew next (literal flags: lines_renewable_exp is partial). */
export const expiringLines = (db: Tx, actor: AuthUser, now: number, scanInOrder: boolean) =>
  visibleLines(db, actor, scanInOrder).where('ln.is_trial', '=', sql.lit(0)).where('ln.enabled', '=', sql.lit(1)).where('ln.exp_date', '>', now);
