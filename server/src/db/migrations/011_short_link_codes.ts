import type { Kysely } from 'kysely';

/**
 * Short links resolve from the line's current data: the stored target (credentials frozen at
 * creation) goes. Old rows carry 48-bit codes that can be guessed and that target, so they are
 * removed: their links answer 404 and a new request of the link gives a 96-bit code.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('short_links').execute();
  await db.schema.alterTable('short_links').dropColumn('target').execute();
  await db.schema
    .createTable('short_link_misses')
    .addColumn('ip', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('misses', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .execute();
}
