import { type Kysely, sql } from 'kysely';
import { COLUMNS, figures, writeLineCountTriggers } from './032_line_counts.ts';
import type { MigrationContext } from './index.ts';

/**
 * Kind 9 of line_counts: live lines by the hour they were created (period: hours since 1970), so
 * that "created in the last 7 days" counts its first day from at most 23 rows plus the lines of
 * one hour, not a range of a whole day's lines (1,600 index entries at 1M lines, 16,000 at 10M,
 * on every admin dashboard view). Only the last CREATION_HOURS_KEPT days are kept (filled here,
 * pruned hourly): no reader asks for older hours.
 */
export const CREATION_HOURS_KEPT_DAYS = 14;

export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  // (PostgreSQL: no line may change between this fill and the new triggers; one transaction)
  if (dialect === 'postgres') await sql`LOCK TABLE lines IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  const since = (Math.floor(Date.now() / 3_600_000) - CREATION_HOURS_KEPT_DAYS * 24) * 3_600;
  const recent = `SELECT ${COLUMNS}, 1 AS sign FROM lines WHERE created_at >= ${since}`;
  await sql.raw(`INSERT INTO line_counts (scope_id, kind, period, n) SELECT scope_id, kind, period, n FROM (${figures(recent, true)}) f WHERE kind = 9`).execute(db);
  await writeLineCountTriggers(db, dialect, true);
}
