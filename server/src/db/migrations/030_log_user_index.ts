import { sql, type Kysely } from 'kysely';

/** The action log's `user` filter (a line's username, any case) in time order: a range of this index, not a walk of the log. */
export async function up(db: Kysely<any>): Promise<void> {
  // (not partial on type_log = 'user': SQLite would then read the type filter's rows through it and sort them)
  await sql`CREATE INDEX logs_target_user_created ON logs (lower(target_user), created_at)`.execute(db);
}
