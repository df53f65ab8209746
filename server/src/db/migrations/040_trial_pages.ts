import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Self-service trials (docs/trials.md): each account's public trial page (`/teste/<slug>`, a unique
 * slug, the trial package, its daily limit, its text) and one row per trial asked for on a page,
 * kept so the limits (a number once per 30 days per account, an address's and the account's
 * trials in the last 24 hours) are counted in SQL through these indexes.
 */
export async function up(db: Kysely<any>, { bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('trial_pages')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('resellers.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('slug', 'varchar(40)')
    .addColumn('package_id', 'integer', (c) => c.references('packages.id'))
    .addColumn('per_day', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('message', 'varchar(500)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('trial_pages_slug').unique().on('trial_pages').column('slug').execute();
  await db.schema
    .createTable('trial_requests')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('whatsapp', 'varchar(20)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('line_id', 'integer', (c) => c.references('lines.id'))
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('error', 'varchar(300)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // once per number per account in 30 days; an address's trials today; the account's trials today
  await db.schema.createIndex('trial_requests_number').on('trial_requests').columns(['reseller_id', 'whatsapp', 'created_at']).execute();
  await db.schema.createIndex('trial_requests_ip').on('trial_requests').columns(['ip', 'created_at']).execute();
  await db.schema.createIndex('trial_requests_reseller').on('trial_requests').columns(['reseller_id', 'created_at']).execute();
  // the panel's own daily trial limit leaves out the lines a page gave (repos/trials-repo.ts)
  await db.schema.createIndex('trial_requests_line').on('trial_requests').column('line_id').execute();
}
