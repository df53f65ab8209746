import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * P2P accounts (docs/rules.md, "P2P accounts"; docs/integrations.md, "P2P server"), the outbox of deliveries to the P2P
 * server, and the old P2P panel's imports.
 *
 * - `p2p_accounts`: owned like lines (member_id), soft-deleted (usernames stay reserved). The login
 *   on the P2P server is `email` = username@domain; both are unique whatever the case. Sync state
 *   (`synced` / `pending` / `failed` + last error) is kept on the row; `sync_version` counts the
 *   changes queued, so a delivery marks the row synced only when no newer change is queued.
 * - `lines`: the same three sync columns for lines on system 2/3 (provisioned by username).
 * - `outbox`: one row per delivery (PUT or DELETE of a login), delivered in id order per subject
 *   (an account or a line) by the worker in `modules/p2p/worker.ts`.
 * - `p2p_imports`: one row per old-panel account whose balance was imported (unique: once only).
 * - `p2p_old_logins`: the old-panel session a reseller attached (`attach_login`), used by the
 *   client preview and import.
 */
export async function up(db: Kysely<any>, { id, bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('p2p_accounts')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('member_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('username', 'varchar(50)', (c) => c.notNull())
    .addColumn('email', 'varchar(120)', (c) => c.notNull())
    .addColumn('password', 'varchar(50)', (c) => c.notNull())
    .addColumn('external_password', 'varchar(100)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1).check(sql`status in (-1, 0, 1)`))
    .addColumn('is_trial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('package_id', 'integer', (c) => c.references('packages.id'))
    .addColumn('max_connections', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('whatsapp', 'varchar(30)')
    .addColumn('notes', 'varchar(500)')
    .addColumn('sync_state', 'varchar(10)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('sync_error', 'varchar(500)')
    .addColumn('sync_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('synced_at', 'bigint')
    .addColumn('deleted_at', 'bigint')
    .execute();
  await db.schema.createIndex('p2p_accounts_username').on('p2p_accounts').expression(sql`lower(username)`).unique().execute();
  await db.schema.createIndex('p2p_accounts_email').on('p2p_accounts').expression(sql`lower(email)`).unique().execute();
  // The list: scoped pages sorted by id, expiry or creation (owner first), and admins' global sorts.
  await db.schema.createIndex('p2p_accounts_member_id').on('p2p_accounts').columns(['member_id', 'id']).execute();
  await db.schema.createIndex('p2p_accounts_member_exp').on('p2p_accounts').columns(['member_id', 'expires_at']).execute();
  await db.schema.createIndex('p2p_accounts_member_created').on('p2p_accounts').columns(['member_id', 'created_at']).execute();
  await db.schema.createIndex('p2p_accounts_exp').on('p2p_accounts').column('expires_at').execute();
  await db.schema.createIndex('p2p_accounts_created').on('p2p_accounts').column('created_at').execute();

  await db.schema.alterTable('lines').addColumn('p2p_sync_state', 'varchar(10)').execute();
  await db.schema.alterTable('lines').addColumn('p2p_sync_error', 'varchar(500)').execute();
  await db.schema.alterTable('lines').addColumn('p2p_sync_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('credit_ledger').addColumn('p2p_account_id', 'integer', (c) => c.references('p2p_accounts.id')).execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('subject_kind', 'varchar(10)', (c) => c.notNull().check(sql`subject_kind in ('account', 'line')`))
    .addColumn('subject_id', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('login', 'varchar(200)', (c) => c.notNull())
    .addColumn('method', 'varchar(10)', (c) => c.notNull().check(sql`method in ('PUT', 'DELETE')`))
    .addColumn('body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'varchar(500)')
    .addColumn('delivered_at', 'bigint')
    .execute();
  // Undelivered rows only: the worker's queue and its per-subject "is there an earlier one" probe.
  await db.schema.createIndex('outbox_queue').on('outbox').column('id').where(sql.ref('delivered_at'), 'is', null).execute();
  await db.schema
    .createIndex('outbox_subject_queue')
    .on('outbox')
    .columns(['subject_kind', 'subject_id', 'id'])
    .where(sql.ref('delivered_at'), 'is', null)
    .execute();
  await db.schema.createIndex('outbox_delivered').on('outbox').column('delivered_at').execute();

  await db.schema
    .createTable('p2p_imports')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('old_username', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('p2p_old_logins')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('resellers.id'))
    .addColumn('old_username', 'varchar(100)', (c) => c.notNull())
    .addColumn('token', 'varchar(1000)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  const domain = await db.selectFrom('settings').select('key').where('key', '=', 'p2p_email_domain').executeTakeFirst();
  if (!domain) await db.insertInto('settings').values({ key: 'p2p_email_domain', value: 'p2p.local' }).execute();
}
