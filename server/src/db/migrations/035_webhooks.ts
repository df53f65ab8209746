import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Outbound webhooks (docs/api.md, "Webhooks"): an account's endpoints, their signing secret sealed
 * like the 2FA secrets, and one delivery row per event and endpoint, written in the transaction of
 * the change it reports and sent in order per endpoint by the webhook worker (a lease per row, so
 * any number of processes share the work and a dead one's rows are taken again).
 */
export async function up(db: Kysely<any>, { id, bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('events', 'varchar(500)', (c) => c.notNull())
    .addColumn('secret_sealed', 'varchar(300)', (c) => c.notNull())
    .addColumn('include_credentials', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_low_threshold', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_endpoints_reseller').on('webhook_endpoints').columns(['reseller_id', 'id']).execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('lease_token', 'varchar(32)')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_answer', 'varchar(300)')
    .addColumn('delivered_at', 'bigint')
    .execute();
  // the worker's walk (due, first in line) and an endpoint's queue and history
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'state', 'id']).execute();
}
