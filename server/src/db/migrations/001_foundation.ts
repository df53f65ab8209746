import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

export async function up(db: Kysely<unknown>, { id, bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('group_id', id, (c) => c.primaryKey())
    .addColumn('group_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull().check(sql`type in ('admin','master','reseller')`))
    .execute();

  await db.schema
    .createTable('resellers')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('username', 'varchar(50)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(255)')
    .addColumn('whatsapp', 'varchar(50)')
    .addColumn('telegram', 'varchar(100)')
    .addColumn('notes', 'varchar(1000)')
    .addColumn('member_group_id', 'integer', (c) => c.notNull().references('groups.group_id'))
    .addColumn('owner_id', 'integer', (c) => c.references('resellers.id'))
    .addColumn('credits', 'integer', (c) => c.notNull().defaultTo(0).check(sql`credits >= 0`))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('last_login', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('resellers_username_lower')
    .on('resellers')
    .unique()
    .expression(sql`lower(username)`)
    .execute();
  await db.schema.createIndex('resellers_owner').on('resellers').column('owner_id').execute();

  // Closure table: one row per (ancestor, descendant) including the reseller itself at depth 0,
  // so "everything under X" is one indexed lookup at any depth.
  await db.schema
    .createTable('reseller_tree')
    .addColumn('ancestor_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('descendant_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('reseller_tree_pk', ['ancestor_id', 'descendant_id'])
    .execute();
  await db.schema.createIndex('reseller_tree_descendant').on('reseller_tree').columns(['descendant_id', 'depth']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('idle_seconds', 'integer', (c) => c.notNull())
    .addColumn('remember_me', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(300)')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_reseller').on('sessions').column('reseller_id').execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('balance_after', 'integer', (c) => c.notNull().check(sql`balance_after >= 0`))
    .addColumn('reason', 'varchar(40)', (c) => c.notNull())
    .addColumn('counterparty_id', 'integer')
    .addColumn('line_id', 'integer')
    .addColumn('actor_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_ledger_reseller').on('credit_ledger').columns(['reseller_id', 'id']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('reseller_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['reseller_id', 'key'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bouquets')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('bouquet_name', 'varchar(100)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('packages')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('package_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('is_trial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_official', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_connections', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('official_credits', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('official_duration', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('official_duration_in', 'varchar(10)', (c) => c.notNull().defaultTo('months'))
    .addColumn('trial_credits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trial_duration', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('trial_duration_in', 'varchar(10)', (c) => c.notNull().defaultTo('hours'))
    .addColumn('bouquets', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();

  await db.schema
    .createTable('logs')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('type_log', 'varchar(30)', (c) => c.notNull())
    .addColumn('action', 'varchar(50)', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('reseller_id', 'integer')
    .addColumn('target_reseller_id', 'integer')
    .addColumn('target_user', 'varchar(100)')
    .addColumn('value', 'varchar(500)')
    .addColumn('value_int', 'bigint')
    .addColumn('ip', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('logs_reseller_created').on('logs').columns(['reseller_id', 'created_at']).execute();
  await db.schema.createIndex('logs_created').on('logs').column('created_at').execute();

  await db.schema
    .createTable('news')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
