import { type Kysely, sql } from 'kysely';
import { nowMs } from '../../lib/clock.ts';
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
  // No line may change between the fill and the new triggers, and a crash leaves all or nothing:
  // PostgreSQL runs each migration in a transaction (and this one locks out writers); SQLite's
  // migrations are not wrapped (kysely: no transactional DDL), so this one takes its own.
  if (dialect === 'sqlite') return db.transaction().execute((trx) => fillAndRewrite(trx, dialect));
  await sql`LOCK TABLE lines IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  await fillAndRewrite(db, dialect);
}

async function fillAndRewrite(db: Kysely<any>, dialect: MigrationContext['dialect']): Promise<void> {
  const since = (Math.floor(nowMs() / 3_600_000) - CREATION_HOURS_KEPT_DAYS * 24) * 3_600;
  const recent = `SELECT ${COLUMNS}, 1 AS sign FROM lines WHERE created_at >= ${since}`;
  await sql`DELETE FROM line_counts WHERE kind = 9`.execute(db);
  await sql.raw(`INSERT INTO line_counts (scope_id, kind, period, n) SELECT scope_id, kind, period, n FROM (${figures(recent, true)}) f WHERE kind = 9`).execute(db);
  await writeLineCountTriggers(db, dialect, true);
}
