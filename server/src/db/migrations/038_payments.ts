import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Customers renew themselves by PIX (docs/payments.md): each account's Mercado Pago credentials
 * (sealed) and retail prices; one row per charge, unique on Mercado Pago's payment id and on the
 * customer's Idempotency-Key, whose status says whether its renewal was applied; customer sessions
 * (a line's, apart from the panel's).
 */
export async function up(db: Kysely<any>, { bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('payment_settings')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('resellers.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('token_sealed', 'varchar(600)')
    .addColumn('secret_sealed', 'varchar(400)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('payment_prices')
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_prices_pk', ['reseller_id', 'package_id'])
    .execute();
  await db.schema
    .createTable('payments')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('mp_payment_id', 'varchar(40)')
    .addColumn('qr_code', 'text')
    .addColumn('qr_code_base64', 'text')
    .addColumn('ticket_url', 'varchar(500)')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('applied_at', 'bigint')
    .addColumn('exp_before', 'bigint')
    .addColumn('exp_after', 'bigint')
    .addColumn('last_error', 'varchar(300)')
    .addColumn('checked_at', 'bigint')
    .execute();
  await db.schema.createIndex('payments_mp_id').unique().on('payments').column('mp_payment_id').execute();
  await db.schema.createIndex('payments_line_key').unique().on('payments').columns(['line_id', 'idempotency_key']).execute();
  // the account's list (newest first, by status) and its received-today figures
  await db.schema.createIndex('payments_reseller').on('payments').columns(['reseller_id', 'id']).execute();
  await db.schema.createIndex('payments_reseller_status').on('payments').columns(['reseller_id', 'status', 'id']).execute();
  // the poller: pending charges, and paid ones waiting for credits
  await db.schema.createIndex('payments_status').on('payments').columns(['status', 'created_at']).execute();
  await db.schema
    .createTable('customer_sessions')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
