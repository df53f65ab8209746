import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Resellers buy credits by PIX from their parent (docs/payments.md, "Credit sales"): the parent's
 * offer (on or off, price per credit, the least a purchase may be), and one row per purchase, unique
 * on Mercado Pago's payment id and on the buyer's Idempotency-Key, whose status says whether its
 * credits were moved.
 */
export async function up(db: Kysely<any>, { bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('credit_sale_settings')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('resellers.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('price_cents_per_credit', 'integer', (c) => c.notNull())
    .addColumn('min_credits', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('credit_purchases')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('buyer_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('mp_payment_id', 'varchar(40)')
    .addColumn('qr_code', 'text')
    .addColumn('qr_code_base64', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('applied_at', 'bigint')
    .addColumn('last_error', 'varchar(300)')
    .addColumn('checked_at', 'bigint')
    .execute();
  await db.schema.createIndex('credit_purchases_mp_id').unique().on('credit_purchases').column('mp_payment_id').execute();
  await db.schema.createIndex('credit_purchases_buyer_key').unique().on('credit_purchases').columns(['buyer_id', 'idempotency_key']).execute();
  // the lists: bought (buyer) and sold (seller), newest first, by status; the seller's waiting ones oldest first
  await db.schema.createIndex('credit_purchases_buyer').on('credit_purchases').columns(['buyer_id', 'id']).execute();
  await db.schema.createIndex('credit_purchases_buyer_status').on('credit_purchases').columns(['buyer_id', 'status', 'id']).execute();
  await db.schema.createIndex('credit_purchases_seller').on('credit_purchases').columns(['seller_id', 'id']).execute();
  await db.schema.createIndex('credit_purchases_seller_status').on('credit_purchases').columns(['seller_id', 'status', 'id']).execute();
  // the poller: stale pending purchases, and paid ones waiting for the seller's credits
  await db.schema.createIndex('credit_purchases_status').on('credit_purchases').columns(['status', 'created_at']).execute();
}
