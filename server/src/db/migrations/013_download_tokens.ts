import type { Kysely } from 'kysely';

/**
 * One-time download links for exports: a browser navigates to the file's URL (no Authorization
 * header there), so the signed-in page first asks for a token bound to its session and to that
 * exact URL, valid 60 seconds and deleted by its first use.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('download_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('url', 'varchar(2100)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('download_tokens_expiry').on('download_tokens').column('expires_at').execute();
}
