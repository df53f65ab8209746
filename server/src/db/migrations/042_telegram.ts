import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.ts';

/**
 * A Telegram bot per account (docs/telegram.md): the bot (its token sealed, the hash of the secret
 * Telegram sends with each update, the account's own chat for its news), the chats of customers
 * linked to a line, the updates already handled (Telegram resends one it thinks was lost), and the
 * queue of what the bot sends, in order per bot and chat.
 */
export async function up(db: Kysely<any>, { bigId }: MigrationContext): Promise<void> {
  await db.schema
    .createTable('telegram_bots')
    .addColumn('reseller_id', 'integer', (c) => c.primaryKey().references('resellers.id'))
    .addColumn('bot_id', 'bigint', (c) => c.notNull())
    .addColumn('bot_username', 'varchar(64)', (c) => c.notNull())
    .addColumn('bot_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('token_sealed', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('revoked_at', 'bigint')
    .addColumn('owner_chat_id', 'bigint')
    .addColumn('link_code_hash', 'varchar(64)')
    .addColumn('link_code_expires_at', 'bigint')
    .addColumn('credits_low_threshold', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('paused_until_ms', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telegram_bots_bot_id').unique().on('telegram_bots').column('bot_id').execute();
  await db.schema
    .createTable('telegram_chats')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull().references('resellers.id'))
    .addColumn('chat_id', 'bigint', (c) => c.notNull())
    .addColumn('line_id', 'integer')
    // the line's password when the chat linked: a changed password unlinks the chat
    .addColumn('line_password_hash', 'varchar(64)')
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('awaiting_contact', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telegram_chats_chat').unique().on('telegram_chats').columns(['reseller_id', 'chat_id']).execute();
  // "Renovado até": the chats linked to a line
  await db.schema.createIndex('telegram_chats_line').on('telegram_chats').column('line_id').execute();
  await db.schema
    .createTable('telegram_updates')
    .addColumn('bot_id', 'bigint', (c) => c.notNull())
    .addColumn('update_id', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('telegram_updates_pk', ['bot_id', 'update_id'])
    .execute();
  await db.schema.createIndex('telegram_updates_received').on('telegram_updates').column('received_at').execute();
  await db.schema
    .createTable('telegram_outbox')
    .addColumn('id', bigId, (c) => c.primaryKey())
    .addColumn('reseller_id', 'integer', (c) => c.notNull())
    .addColumn('chat_id', 'bigint', (c) => c.notNull())
    .addColumn('method', 'varchar(24)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('last_error', 'varchar(300)')
    .execute();
  // the worker: what is due, oldest first, and whether a chat has an earlier unsent row (in order
  // per chat); a chat's unsent rows counted (a cap); a bot's rows when its token is revoked; the prune
  await db.schema.createIndex('telegram_outbox_due').on('telegram_outbox').columns(['status', 'next_at_ms', 'id']).execute();
  await db.schema.createIndex('telegram_outbox_chat').on('telegram_outbox').columns(['reseller_id', 'chat_id', 'status', 'id']).execute();
  await db.schema.createIndex('telegram_outbox_bot').on('telegram_outbox').columns(['reseller_id', 'status']).execute();
  await db.schema.createIndex('telegram_outbox_created').on('telegram_outbox').columns(['created_at']).execute();
}
