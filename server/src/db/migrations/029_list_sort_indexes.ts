import { type Kysely, sql } from 'kysely';

/**
 * The users list sorts by id, username, created_at, exp_date and the owner's username, with any
 * mix of filters. Each sort has an index in its order for the admin (every live line) and one for
 * a top-level master (its lines_top_reseller range). Every one carries the filter columns
 * (owner, enabled, is_trial, exp_date, created_at), so a page of a broad filter is found walking
 * the index alone, without reading rows it skips. The sparse filters' partial indexes (blocked,
 * trial) carry them too: two sparse filters together are counted and sorted from the index alone.
 * deleted_at closes each one: SQLite uses an index as covering only when it holds every column
 * the statement names, the partial condition's included.
 */
const FILTERS = 'member_id, enabled, is_trial, exp_date, created_at, deleted_at';
const LIVE = 'WHERE deleted_at IS NULL';

const INDEXES: [name: string, columns: string, where: string][] = [
  ['lines_live_created', `created_at, id, ${FILTERS}`, LIVE],
  ['lines_live_exp', `exp_date, id, ${FILTERS}`, LIVE],
  ['lines_live_username', `username, id, ${FILTERS}`, LIVE],
  ['lines_member_id', `member_id, id, enabled, is_trial, exp_date, created_at, deleted_at`, LIVE],
  ['lines_blocked', `id, ${FILTERS}`, `${LIVE} AND enabled = 0`],
  ['lines_trial', `id, ${FILTERS}`, `${LIVE} AND is_trial = 1`],
  ['lines_top_created', `top_reseller_id, created_at, id, ${FILTERS}`, LIVE],
  ['lines_top_exp', `top_reseller_id, exp_date, id, ${FILTERS}`, LIVE],
  ['lines_top_username', `top_reseller_id, username, id, ${FILTERS}`, LIVE],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns, where] of INDEXES) {
    await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
    await sql.raw(`CREATE INDEX ${name} ON lines (${columns}) ${where}`).execute(db);
  }
  // The owner's-username sort walks the owners in username order, then each one's lines by id:
  // unique, so that walk is the whole order (usernames are already unique in any case).
  await sql`CREATE UNIQUE INDEX resellers_username ON resellers (username)`.execute(db);
}
