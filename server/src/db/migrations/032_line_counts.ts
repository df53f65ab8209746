import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * The dashboard's line figures, kept instead of counted by scanning a million lines.
 *
 * line_counts holds, per scope (0 = every line, for admins; otherwise a top-level reseller's id,
 * the lines' top_reseller_id), kind and period, how many lines:
 * - kind 0: live lines by the day they were created (period: days since 1970, UTC);
 * - kinds 1-4: enabled live lines by the day they expire, 1 + 2 * is_trial + (system <> 1):
 *   1 normal HTTP, 2 normal P2P, 3 trial HTTP, 4 trial P2P;
 * - kinds 5-8: the same as 1-4 by the hour they expire (period: hours since 1970), so that the
 *   rest of today is counted from at most 23 rows plus the lines expiring within this hour.
 *
 * Triggers never update those shared rows: every change of a line only INSERTS its differences
 * into line_count_changes (no row lock another reseller's spend could wait on, even behind a
 * process killed mid-transaction). A folder moves the changes into line_counts in the
 * background (modules/dashboard/line-counts-folder.ts); a reader sums both in one statement.
 * PostgreSQL writes one grouped insert per statement (transition tables); SQLite per row.
 */
export async function up(db: Kysely<any>, { dialect, bigId }: MigrationContext): Promise<void> {
  await sql`CREATE TABLE line_counts (scope_id integer NOT NULL, kind integer NOT NULL, period integer NOT NULL, n bigint NOT NULL,
    PRIMARY KEY (scope_id, kind, period))`.execute(db);
  await db.schema
    .createTable('line_count_changes')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('scope_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('period', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX line_count_changes_scope ON line_count_changes (scope_id, kind, period)`.execute(db);

  // (PostgreSQL: no line may change between this fill and the triggers below; the migration is one transaction)
  if (dialect === 'postgres') await sql`LOCK TABLE lines IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  await sql.raw(`INSERT INTO line_counts (scope_id, kind, period, n) ${figures(`SELECT ${COLUMNS}, 1 AS sign FROM lines`)}`).execute(db);
  // The admin's resellers card counts this index, not the wide reseller rows (PostgreSQL read
  // all 10,000 of them: 2.6 ms of every admin dashboard view).
  await sql`CREATE INDEX resellers_live ON resellers (id) WHERE deleted_at IS NULL`.execute(db);

  await writeLineCountTriggers(db, dialect, false);
}

/**
 * (Re)writes the triggers that record every change of a line's figures (033 adds creation hours).
 * PostgreSQL: once per statement, grouped, from its transition tables; SQLite: per row.
 */
export async function writeLineCountTriggers(db: Kysely<any>, dialect: MigrationContext['dialect'], creationHours: boolean): Promise<void> {
  const record = (source: string) => `INSERT INTO line_count_changes (scope_id, kind, period, n) ${figures(source, creationHours)}`;
  const rows = (from: string, sign: number) => `SELECT ${COLUMNS.split(', ').map((c) => `${from}.${c} AS ${c}`).join(', ')}, ${sign} AS sign`;
  if (dialect === 'postgres') {
    const events = [
      ['insert', 'INSERT', 'REFERENCING NEW TABLE AS new_rows', `${rows('new_rows', 1)} FROM new_rows`],
      ['update', 'UPDATE', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows', `${rows('new_rows', 1)} FROM new_rows UNION ALL ${rows('old_rows', -1)} FROM old_rows`],
      ['delete', 'DELETE', 'REFERENCING OLD TABLE AS old_rows', `${rows('old_rows', -1)} FROM old_rows`],
    ];
    // (a trigger already there keeps calling its function, replaced in place: dropping it would
    // take an ACCESS EXCLUSIVE lock on lines mid-migration, and deadlock with a live writer)
    const { rows: existing } = await sql<{ tgname: string }>`SELECT tgname FROM pg_trigger WHERE tgrelid = 'lines'::regclass`.execute(db);
    for (const [name, event, referencing, source] of events) {
      await sql.raw(`CREATE OR REPLACE FUNCTION line_counts_${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${record(source)}; RETURN NULL; END $$`).execute(db);
      if (existing.some((t) => t.tgname === `line_counts_${name}`)) continue;
      await sql.raw(`CREATE TRIGGER line_counts_${name} AFTER ${event} ON lines ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION line_counts_${name}()`).execute(db);
    }
    return;
  }
  // (SQLite: the top_reseller_id set by 019's insert trigger arrives as an update of that column.)
  const triggers = [
    ['insert', 'INSERT', record(rows('NEW', 1))],
    ['update', `UPDATE OF ${COLUMNS}`, record(`${rows('NEW', 1)} UNION ALL ${rows('OLD', -1)}`)],
    ['delete', 'DELETE', record(rows('OLD', -1))],
  ];
  for (const [name, event, body] of triggers) {
    await sql.raw(`DROP TRIGGER IF EXISTS line_counts_${name}`).execute(db);
    await sql.raw(`CREATE TRIGGER line_counts_${name} AFTER ${event} ON lines BEGIN ${body}; END`).execute(db);
  }
}

/** The columns a line's figures depend on. */
export const COLUMNS = 'created_at, exp_date, enabled, is_trial, system, deleted_at, top_reseller_id';

/**
 * (scope_id, kind, period, n) of the rows of `source` (COLUMNS and a sign, +1 or -1), grouped,
 * with the groups that cancel out (an update that moved nothing counted) left out. `creationHours`
 * (migration 033) adds kind 9: live lines by the hour they were created.
 */
export function figures(source: string, creationHours = false): string {
  const kind = '1 + 2 * r.is_trial + CASE WHEN r.system <> 1 THEN 1 ELSE 0 END';
  return `SELECT scope_id, kind, period, sum(n) AS n FROM (
      SELECT CASE s.top WHEN 0 THEN 0 ELSE r.top_reseller_id END AS scope_id,
        CASE f.what WHEN 0 THEN 0 WHEN 1 THEN ${kind} WHEN 2 THEN ${kind} + 4 ELSE 9 END AS kind,
        CASE f.what WHEN 0 THEN r.created_at / 86400 WHEN 1 THEN r.exp_date / 86400 WHEN 2 THEN r.exp_date / 3600 ELSE r.created_at / 3600 END AS period,
        r.sign AS n
      FROM (${source}) r
      CROSS JOIN (SELECT 0 AS top UNION ALL SELECT 1) s
      CROSS JOIN (SELECT 0 AS what UNION ALL SELECT 1 UNION ALL SELECT 2${creationHours ? ' UNION ALL SELECT 3' : ''}) f
      WHERE r.deleted_at IS NULL AND (s.top = 0 OR r.top_reseller_id IS NOT NULL) AND (f.what IN (0, 3) OR r.enabled = 1)
    ) x GROUP BY scope_id, kind, period HAVING sum(n) <> 0`;
}
