import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * PostgreSQL: statistics on the three expressions a free-text search walks with
 * (`coalesce(lower(username), '')`, ..., repos/line-filters-repo.ts textMatch). Without them the planner
 * estimated every `%term%` at a fraction of a percent of the lines, so below ~50,000 lines it
 * sorted every line for a common term's first page instead of walking the id order, and the walk
 * at a million lines rested on that guess too. With them it matches the pattern against the
 * expressions' sampled values (the histogram) and sees a common term as common. SQLite: nothing
 * (FTS5 counts the term itself, see searchIndexMatches).
 */
export async function up(db: Kysely<any>, { dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`CREATE STATISTICS lines_search_walk ON (coalesce(lower(username), '')), (coalesce(lower(reseller_notes), '')), (coalesce(whatsapp, '')) FROM lines`.execute(db);
  // Filled by the next ANALYZE (autovacuum's, or this one: ~1 s at 1M lines, a 30,000-row sample).
  await sql`ANALYZE lines`.execute(db);
}
