import type { Kysely } from 'kysely';

/**
 * What another provider answered to a migration lookup, per caller and username, for 30 minutes:
 * the migration then uses these values, never the client's. In the database rather than in one
 * process's memory, so a lookup answered by one server process (WORKERS > 1) is found by the
 * process that serves the migration. The provider's password is kept as a SHA-256 only: the
 * migration compares it with the one the client sends (which then becomes the line's).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('migration_lookups')
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('exp_date', 'bigint')
    .addColumn('created_at', 'bigint')
    .addColumn('is_trial', 'integer', (c) => c.notNull())
    /** epoch milliseconds */
    .addColumn('looked_up_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('migration_lookups_pk', ['reseller_id', 'username'])
    .execute();
  await db.schema.createIndex('migration_lookups_age').on('migration_lookups').column('looked_up_at').execute();
}
