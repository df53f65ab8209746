import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<any>, { id }: MigrationContext): Promise<void> {
  await db.schema.createIndex('logs_target_created').on('logs').columns(['target_reseller_id', 'created_at']).execute();

  await db.schema
    .createTable('reseller_domains')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('dns_reseller', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_by', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reseller_domains_reseller').on('reseller_domains').column('reseller_id').execute();

  // End-user lines. Each filter and sort of the user list has an index that starts with the owner
  // (member_id) for scoped queries, plus global ones for admins.
  await db.schema
    .createTable('lines')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('member_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('username', 'varchar(50)', (c) => c.notNull())
    .addColumn('password', 'varchar(50)', (c) => c.notNull())
    .addColumn('exp_date', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_trial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_connections', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('package_id', 'integer', (c) => c.references('packages.id'))
    .addColumn('bouquet', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('reseller_notes', 'varchar(500)')
    .addColumn('whatsapp', 'varchar(30)')
    .addColumn('system', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_extended_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('lines_username').on('lines').column('username').unique().execute();
  await db.schema.createIndex('lines_member_exp').on('lines').columns(['member_id', 'exp_date']).execute();
  await db.schema.createIndex('lines_member_created').on('lines').columns(['member_id', 'created_at']).execute();
  await db.schema.createIndex('lines_exp').on('lines').column('exp_date').execute();
  await db.schema.createIndex('lines_created').on('lines').column('created_at').execute();
}
