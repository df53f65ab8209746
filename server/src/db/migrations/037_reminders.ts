import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * Expiry reminders (docs/reminders.md): a line's e-mail and opt-out; each account's reminder
 * settings (its WhatsApp gateway key sealed like the 2FA secrets); and one message row per
 * (line, stage, expiry, channel), written before the gateway is called, so nothing is sent twice.
 */
export async function up(db: Kysely<any>, { bigId }: MigrationContext): Promise<void> {
  await db.schema.alterTable('lines').addColumn('email', 'varchar(120)').execute();
  await db.schema.alterTable('lines').addColumn('opt_out_reminders', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('reminder_settings')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('resellers.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    // null: inherited from the nearest master that set it, else the built-in default
    .addColumn('stages', 'varchar(100)')
    .addColumn('quiet_from', 'varchar(5)')
    .addColumn('quiet_to', 'varchar(5)')
    .addColumn('language', 'varchar(2)')
    .addColumn('templates', 'text')
    .addColumn('email_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('whatsapp_base_url', 'varchar(300)')
    .addColumn('whatsapp_instance', 'varchar(100)')
    .addColumn('whatsapp_key_sealed', 'varchar(400)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // the scheduler's list of accounts to look at
  await db.schema.createIndex('reminder_settings_enabled').on('reminder_settings').columns(['enabled', 'reseller_id']).execute();
  await db.schema
    .createTable('reminder_messages')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('line_id', 'integer', (c) => c.notNull().references('lines.id'))
    .addColumn('stage', 'varchar(10)', (c) => c.notNull())
    .addColumn('exp_date', 'bigint', (c) => c.notNull())
    .addColumn('channel', 'varchar(10)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(120)', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('answer', 'varchar(300)')
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema.createIndex('reminder_messages_once').unique().on('reminder_messages').columns(['line_id', 'stage', 'exp_date', 'channel']).execute();
  // an account's history (newest first, by status), its sends in the last minute and today
  await db.schema.createIndex('reminder_messages_reseller').on('reminder_messages').columns(['reseller_id', 'id']).execute();
  await db.schema.createIndex('reminder_messages_reseller_status').on('reminder_messages').columns(['reseller_id', 'status', 'id']).execute();
  await db.schema.createIndex('reminder_messages_reseller_created').on('reminder_messages').columns(['reseller_id', 'created_at']).execute();
  // retries and sends a dead process left behind
  await db.schema.createIndex('reminder_messages_due').on('reminder_messages').columns(['status', 'next_attempt_at']).execute();
}
