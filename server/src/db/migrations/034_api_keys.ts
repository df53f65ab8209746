import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * API keys (docs/api.md): a program acting for a panel account. Only the key's SHA-256 is kept;
 * `api_key_usage` counts each key's requests per minute in the database, so the limit holds across
 * processes. The action log names the key a change came through.
 */
export async function up(db: Kysely<any>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('scopes', 'varchar(200)', (c) => c.notNull())
    .addColumn('allowed_ips', 'varchar(2000)')
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('last_used_ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('api_keys_key_hash').on('api_keys').column('key_hash').unique().execute();
  await db.schema.createIndex('api_keys_reseller').on('api_keys').columns(['reseller_id', 'id']).execute();
  await db.schema
    .createTable('api_key_usage')
    .addColumn('key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_key_usage_pk', ['key_id', 'minute'])
    .execute();
  await db.schema.alterTable('logs').addColumn('api_key_name', 'varchar(100)').execute();
}
