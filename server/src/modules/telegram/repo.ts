import type { Selectable } from 'kysely';
import type { Tx } from '../../db/tx.ts';
import type { TelegramBotsTable, TelegramChatsTable, TelegramOutboxTable } from '../../db/types.ts';

// The accounts' Telegram bots, their chats, the updates already handled and the send queue
// (042_telegram). Every read is by a key or an index range; nothing loads a table.

export type BotRow = Selectable<TelegramBotsTable>;
export type ChatRow = Selectable<TelegramChatsTable>;
export type OutboxRow = Selectable<TelegramOutboxTable>;

export const botOf = (db: Tx, resellerId: number): Promise<BotRow | undefined> => db.selectFrom('telegram_bots').selectAll().where('reseller_id', '=', resellerId).executeTakeFirst();

export const botByTelegramId = (db: Tx, botId: number): Promise<BotRow | undefined> => db.selectFrom('telegram_bots').selectAll().where('bot_id', '=', botId).executeTakeFirst();

export async function saveBot(db: Tx, row: Omit<BotRow, 'paused_until_ms' | 'link_code_hash' | 'link_code_expires_at'>): Promise<void> {
  const { reseller_id, ...rest } = row;
  await db.insertInto('telegram_bots').values(row).onConflict((oc) => oc.column('reseller_id').doUpdateSet(rest)).execute();
}

export async function updateBot(db: Tx, resellerId: number, set: Partial<Omit<BotRow, 'reseller_id'>>): Promise<void> {
  await db.updateTable('telegram_bots').set(set).where('reseller_id', '=', resellerId).execute();
}

/** A bot removed: its chats and what it had still to send go with it. */
export async function deleteBot(db: Tx, resellerId: number): Promise<void> {
  await db.deleteFrom('telegram_outbox').where('reseller_id', '=', resellerId).where('status', '=', 'pending').execute();
  await db.deleteFrom('telegram_chats').where('reseller_id', '=', resellerId).execute();
  await db.deleteFrom('telegram_bots').where('reseller_id', '=', resellerId).execute();
}

/** Records an update as handled; false when it was already (Telegram sends it again when it saw no 200). */
export async function firstTimeUpdate(db: Tx, resellerId: number, updateId: number, now: number): Promise<boolean> {
  const row = await db
    .insertInto('telegram_updates')
    .values({ reseller_id: resellerId, update_id: updateId, received_at: now })
    .onConflict((oc) => oc.columns(['reseller_id', 'update_id']).doNothing())
    .returning('update_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function pruneUpdates(db: Tx, before: number): Promise<void> {
  await db.deleteFrom('telegram_updates').where('received_at', '<', before).execute();
}

export const chatOf = (db: Tx, resellerId: number, chatId: number): Promise<ChatRow | undefined> =>
  db.selectFrom('telegram_chats').selectAll().where('reseller_id', '=', resellerId).where('chat_id', '=', chatId).executeTakeFirst();

/** The chat's row, made or brought up to date (its language follows the client's). */
export async function touchChat(db: Tx, resellerId: number, chatId: number, language: string, now: number): Promise<ChatRow> {
  await db
    .insertInto('telegram_chats')
    .values({ reseller_id: resellerId, chat_id: chatId, language, updated_at: now })
    .onConflict((oc) => oc.columns(['reseller_id', 'chat_id']).doUpdateSet({ language, updated_at: now }))
    .execute();
  return (await chatOf(db, resellerId, chatId)) as ChatRow;
}

export async function updateChat(db: Tx, id: number, set: Partial<Pick<ChatRow, 'line_id' | 'awaiting_contact' | 'updated_at'>>): Promise<void> {
  await db.updateTable('telegram_chats').set(set).where('id', '=', id).execute();
}

/** The chats of this account's bot linked to a line. */
export const chatsOfLine = (db: Tx, resellerId: number, lineId: number) =>
  db.selectFrom('telegram_chats').select(['chat_id', 'language']).where('line_id', '=', lineId).where('reseller_id', '=', resellerId).execute();

export async function countLinkedChats(db: Tx, resellerId: number): Promise<number> {
  const row = await db.selectFrom('telegram_chats').select((eb) => eb.fn.countAll<number>().as('n')).where('reseller_id', '=', resellerId).where('line_id', 'is not', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function enqueue(db: Tx, row: { reseller_id: number; chat_id: number; method: string; payload: string; next_at_ms: number; created_at: number }): Promise<void> {
  await db.insertInto('telegram_outbox').values({ ...row, status: 'pending' }).execute();
}

/** What is due, oldest first: the worker keeps the first per chat and a bot's share of the second. */
export const due = (db: Tx, nowMs: number, limit: number): Promise<OutboxRow[]> =>
  db.selectFrom('telegram_outbox').selectAll().where('status', '=', 'pending').where('next_at_ms', '<=', nowMs).orderBy('id').limit(limit).execute();

/** One statement: of two processes claiming a row, one gets it; `next_at_ms` then says when the claim is stale. */
export async function claim(db: Tx, id: number, staleAtMs: number): Promise<boolean> {
  const r = await db.updateTable('telegram_outbox').set({ status: 'sending', next_at_ms: staleAtMs }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function finish(db: Tx, id: number, set: { status: 'sent' | 'failed' | 'pending'; attempts?: number; next_at_ms?: number; sent_at?: number | null; last_error?: string | null }): Promise<void> {
  await db.updateTable('telegram_outbox').set(set).where('id', '=', id).where('status', '=', 'sending').execute();
}

/** Rows left `sending` by a process that died mid-send: Telegram may have them, so they are never sent again. */
export async function failAbandoned(db: Tx, nowMs: number): Promise<void> {
  await db.updateTable('telegram_outbox').set({ status: 'failed', last_error: 'the sending process stopped; not sent again' }).where('status', '=', 'sending').where('next_at_ms', '<', nowMs).execute();
}

/** A bot whose token Telegram refuses: what it still had to send cannot go. */
export async function failPendingOf(db: Tx, resellerId: number, why: string): Promise<void> {
  await db.updateTable('telegram_outbox').set({ status: 'failed', last_error: why }).where('reseller_id', '=', resellerId).where('status', '=', 'pending').execute();
}

export async function delayPendingOf(db: Tx, resellerId: number, untilMs: number): Promise<void> {
  await db.updateTable('telegram_outbox').set({ next_at_ms: untilMs }).where('reseller_id', '=', resellerId).where('status', '=', 'pending').where('next_at_ms', '<', untilMs).execute();
}

export async function pruneOutbox(db: Tx, before: number): Promise<void> {
  await db.deleteFrom('telegram_outbox').where('status', 'in', ['sent', 'failed']).where('created_at', '<', before).execute();
}
