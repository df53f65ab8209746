import type { Kysely } from 'kysely';

/** Computed dashboard answers per caller, reused for a few seconds (see modules/dashboard/cache.ts). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('dashboard_cache')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .addColumn('invalidated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('body', 'text')
    .execute();
}
