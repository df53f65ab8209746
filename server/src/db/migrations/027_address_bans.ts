import type { Kysely } from 'kysely';

/**
 * A disconnect from the panel refuses the line from the client's address whatever its user agent
 * (a player must not get back in by changing its User-Agent); a connection dropped for a newer
 * one (max_connections_policy drop_oldest) is refused only for that player. This flag tells the two apart.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('line_activity').addColumn('address_ban', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
