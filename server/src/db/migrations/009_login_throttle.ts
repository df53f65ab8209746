import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Sign-in throttling (see modules/auth/throttle.ts): one counter row per key (username+IP,
 * IP, account, known device, ...) with growing delays, and the devices that signed in before.
 */
export async function up(db: Kysely<any>, { id }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('delay_seconds', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addColumn('refused', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_throttle_last_at').on('login_throttle').column('last_at').execute();

  await db.schema
    .createTable('known_devices')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('known_devices_reseller').on('known_devices').column('reseller_id').execute();
}
