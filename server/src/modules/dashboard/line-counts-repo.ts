import { sql } from 'kysely';
import type { Dialect } from '../../db/connection.ts';
import type { Tx } from '../../db/tx.ts';
import { CREATION_HOURS_KEPT_DAYS } from '../../db/migrations/033_line_creation_hours.ts';

// The kept line figures of migrations 032 and 033: line_counts (folded) plus line_count_changes (written
// by the lines triggers, not yet folded). Readers sum both in one statement, so a fold is never
// seen half done; the folder (line-counts-folder.ts) only keeps the changes table short.

const DAY = 86_400;
const HOUR = 3_600;

/** 0: every line (admins); a top-level reseller's id: its lines (their top_reseller_id). */
export type CountScope = number;

export interface LineFigures {
  /** live lines */
  total: number;
  /** live lines created since `newSince` */
  created: number;
  /** enabled live lines expiring after `now`, by kind: 1 normal HTTP, 2 normal P2P, 3 trial HTTP, 4 trial P2P */
  active: [number, number, number, number];
}

/**
 * The figures from the kept counts (migrations 032, 033) plus index range counts of the lines at
 * the edges: created since `newSince` within its hour, expiring after `now` within this hour.
 * One statement: one snapshot of the counts, the changes and the lines. Few branches, as its
 * planning is half its cost on PostgreSQL; a scope's rows are a few thousand at most.
 */
export async function keptLineFigures(db: Tx, scope: CountScope, now: number, newSince: number): Promise<LineFigures> {
  const today = Math.floor(now / DAY);
  const hour = Math.floor(now / HOUR);
  const sinceDay = Math.floor(newSince / DAY);
  const sinceHour = Math.floor(newSince / HOUR);
  const inScope = scope === 0 ? sql`true` : sql`ln.top_reseller_id = ${scope}`;
  // out: 0 created after the week's first day, 9 created before, 10 created within the week's
  // first day (by hour, kind 9), 1-4 active (kinds 5-8, by hour, read as 1-4)
  const kept = (table: 'line_counts' | 'line_count_changes') => sql`
    SELECT CASE WHEN kind = 0 THEN CASE WHEN period > ${sinceDay} THEN 0 ELSE 9 END WHEN kind = 9 THEN 10 WHEN kind > 4 THEN kind - 4 ELSE kind END AS kind, n
    FROM ${sql.table(table)}
    WHERE scope_id = ${scope}
      AND (kind = 0 OR (kind BETWEEN 1 AND 4 AND period > ${today}) OR (kind BETWEEN 5 AND 8 AND period > ${hour} AND period < ${(today + 1) * 24})
        OR (kind = 9 AND period > ${sinceHour} AND period < ${(sinceDay + 1) * 24}))`;
  const { rows } = await sql<{ kind: number; n: number | string }>`
    SELECT kind, sum(n) AS n FROM (
      ${kept('line_counts')}
      UNION ALL ${kept('line_count_changes')}
      UNION ALL SELECT 10 AS kind, 1 AS n FROM lines ln
        WHERE ${inScope} AND ln.deleted_at IS NULL AND ln.created_at >= ${newSince} AND ln.created_at < ${(sinceHour + 1) * HOUR}
      UNION ALL SELECT 1 + 2 * ln.is_trial + CASE WHEN ln.system <> 1 THEN 1 ELSE 0 END AS kind, 1 AS n FROM lines ln
        WHERE ${inScope} AND ln.deleted_at IS NULL AND ln.enabled = 1 AND ln.exp_date > ${now} AND ln.exp_date < ${(hour + 1) * HOUR}
    ) x GROUP BY kind`.execute(db);
  const by = (kind: number) => Number(rows.find((r) => Number(r.kind) === kind)?.n ?? 0);
  return { total: by(0) + by(9), created: by(0) + by(10), active: [by(1), by(2), by(3), by(4)] };
}

/**
 * Drops the by-hour counts no reader asks for: expiries of hours before `now` less a day, creations
 * older than CREATION_HOURS_KEPT_DAYS. Under the fold's lock (a fold may be adding to those rows:
 * a renewed expired line subtracts from its old hour).
 */
export async function pruneHours(trx: Tx, dialect: Dialect, now: number): Promise<void> {
  if (!(await foldLock(trx, dialect))) return;
  const hour = Math.floor(now / HOUR);
  await trx.deleteFrom('line_counts').where('kind', 'in', [5, 6, 7, 8]).where('period', '<', hour - 24).execute();
  await trx.deleteFrom('line_counts').where('kind', '=', 9).where('period', '<', hour - CREATION_HOURS_KEPT_DAYS * 24).execute();
}

/** PostgreSQL advisory lock key: one fold (or prune) at a time across processes */
const FOLD_LOCK = 32_032;

/** PostgreSQL: takes the fold's lock for this transaction, or says another process has it. SQLite: its write lock is enough. */
async function foldLock(trx: Tx, dialect: Dialect): Promise<boolean> {
  if (dialect !== 'postgres') return true;
  const lock = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`.execute(trx);
  return !!lock.rows[0]?.ok;
}

/**
 * Moves up to `batch` changes into line_counts; call inside a write transaction. Returns how many
 * it moved (0 on PostgreSQL when another process is folding).
 */
export async function foldChanges(trx: Tx, dialect: Dialect, batch: number): Promise<number> {
  if (!(await foldLock(trx, dialect))) return 0;
  if (dialect === 'postgres') {
    // DELETE ... RETURNING takes exactly the committed changes it removes; a range of ids could
    // drop one whose transaction, holding a lower id, commits later.
    const { rows } = await sql<{ moved: string }>`
      WITH moved AS (
        DELETE FROM line_count_changes WHERE id IN (SELECT id FROM line_count_changes ORDER BY id LIMIT ${batch})
        RETURNING scope_id, kind, period, n
      ), added AS (
        INSERT INTO line_counts (scope_id, kind, period, n)
        SELECT scope_id, kind, period, sum(n) FROM moved GROUP BY scope_id, kind, period
        ON CONFLICT (scope_id, kind, period) DO UPDATE SET n = line_counts.n + excluded.n
        RETURNING 1
      )
      SELECT count(*) AS moved FROM moved`.execute(trx);
    return Number(rows[0]?.moved ?? 0);
  }
  // SQLite: the transaction holds the only write lock, so every change up to an id is there.
  const last = await sql<{ id: number | null; moved: number }>`
    SELECT max(id) AS id, count(*) AS moved FROM (SELECT id FROM line_count_changes ORDER BY id LIMIT ${batch})`.execute(trx);
  const upTo = last.rows[0]?.id;
  if (upTo == null) return 0;
  await sql`
    INSERT INTO line_counts (scope_id, kind, period, n)
    SELECT scope_id, kind, period, sum(n) FROM line_count_changes WHERE id <= ${upTo} GROUP BY scope_id, kind, period
    ON CONFLICT (scope_id, kind, period) DO UPDATE SET n = line_counts.n + excluded.n`.execute(trx);
  await sql`DELETE FROM line_count_changes WHERE id <= ${upTo}`.execute(trx);
  return Number(last.rows[0].moved);
}
