import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * line_day_counts: enabled live lines per top-level reseller (`top_id`, lines.top_reseller_id, 0 when
 * unset), kind (is_trial * 2 + 1 when P2P) and UTC day of expiry, kept exact by triggers in every
 * line change's own transaction. The dashboard's "active" cards are then a sum over days after today
 * plus the lines expiring later today (an index range), for the admin and for a top-level master,
 * instead of a scan of every line after each change. Rows are per top-level reseller, so the
 * resellers of one master share its rows and nobody else's (no row every writer waits on).
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  await sql`CREATE TABLE line_day_counts (
    top_id integer NOT NULL,
    kind integer NOT NULL,
    exp_day integer NOT NULL,
    n integer NOT NULL,
    PRIMARY KEY (top_id, exp_day, kind)
  )`.execute(db);
  // the admin's sum: every top-level reseller's days after today
  await sql`CREATE INDEX line_day_counts_day ON line_day_counts (exp_day, kind, n)`.execute(db);

  const kind = (row: string) => (dialect === 'postgres' ? `(${row}.is_trial * 2 + (${row}.system <> 1)::int)` : `(${row}.is_trial * 2 + (${row}.system <> 1))`);
  const day = (row: string) => (dialect === 'postgres' ? `(${row}.exp_date / 86400)::int` : `(${row}.exp_date / 86400)`);
  const counted = (row: string) => `${row}.deleted_at IS NULL AND ${row}.enabled = 1`;
  const key = (row: string) => `coalesce(${row}.top_reseller_id, 0), ${kind(row)}, ${day(row)}`;
  const add = (row: string, delta: 1 | -1) =>
    `INSERT INTO line_day_counts (top_id, kind, exp_day, n) SELECT ${key(row)}, ${delta} WHERE ${counted(row)}
     ON CONFLICT (top_id, exp_day, kind) DO UPDATE SET n = line_day_counts.n + ${delta};`;

  await sql.raw(`INSERT INTO line_day_counts (top_id, kind, exp_day, n)
    SELECT ${key('lines')}, count(*) FROM lines WHERE ${counted('lines')} GROUP BY 1, 2, 3`).execute(db);

  const watched = 'enabled, is_trial, system, exp_date, deleted_at, top_reseller_id';
  if (dialect === 'postgres') {
    await sql.raw(`
      CREATE FUNCTION line_day_counts_trg() RETURNS trigger AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN ${add('OLD', -1)} END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN ${add('NEW', 1)} END IF;
        RETURN NULL;
      END $$ LANGUAGE plpgsql`).execute(db);
    await sql.raw(`CREATE TRIGGER line_day_counts AFTER INSERT OR DELETE OR UPDATE OF ${watched} ON lines
      FOR EACH ROW EXECUTE FUNCTION line_day_counts_trg()`).execute(db);
    return;
  }
  // SQLite sets top_reseller_id by an UPDATE right after the INSERT (migration 019), which the
  // update trigger sees as a move: in whatever order the triggers run, the counts end up exact.
  await sql.raw(`CREATE TRIGGER line_day_counts_insert AFTER INSERT ON lines BEGIN ${add('NEW', 1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER line_day_counts_update AFTER UPDATE OF ${watched} ON lines BEGIN ${add('OLD', -1)} ${add('NEW', 1)} END`).execute(db);
  await sql.raw(`CREATE TRIGGER line_day_counts_delete AFTER DELETE ON lines BEGIN ${add('OLD', -1)} END`).execute(db);
}
