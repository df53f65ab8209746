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

/** The bot, with whether its account may act (active, not deleted): an inactive account's bot answers nothing. */
export const botWithAccount = (db: Tx, botId: number) =>
  db
    .selectFrom('telegram_bots as b')
    .innerJoin('resellers as r', 'r.id', 'b.reseller_id')
    .selectAll('b')
    .select((eb) => eb.and([eb('r.status', '=', 1), eb('r.deleted_at', 'is', null)]).as('account_active'))
    .where('b.bot_id', '=', botId)
    .executeTakeFirst();

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
export async function firstTimeUpdate(db: Tx, botId: number, updateId: number, now: number): Promise<boolean> {
  const row = await db
    .insertInto('telegram_updates')
    .values({ bot_id: botId, update_id: updateId, received_at: now })
    .onConflict((oc) => oc.columns(['bot_id', 'update_id']).doNothing())
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

export async function updateChat(db: Tx, id: number, set: Partial<Pick<ChatRow, 'line_id' | 'line_password_hash' | 'awaiting_contact' | 'updated_at'>>): Promise<void> {
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

/** A chat's unsent rows, counted up to `cap` (an index range). */
export async function unsentInChat(db: Tx, resellerId: number, chatId: number, cap: number): Promise<number> {
  const rows = await db
    .selectFrom('telegram_outbox')
    .select('id')
    .where('reseller_id', '=', resellerId)
    .where('chat_id', '=', chatId)
    .where('status', 'in', ['pending', 'sending'])
    .limit(cap)
    .execute();
  return rows.length;
}

/**
 * What is due, oldest first, each the first unsent row of its chat: a chat's messages go in order
 * (a row waiting for its retry holds the later ones back) and one chat's backlog fills one place of
 * the batch, not all of them.
 */
export const due = (db: Tx, nowMs: number, limit: number): Promise<OutboxRow[]> =>
  db
    .selectFrom('telegram_outbox as o')
    .selectAll('o')
    .where('o.status', '=', 'pending')
    .where('o.next_at_ms', '<=', nowMs)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('telegram_outbox as e')
            .select('e.id')
            .whereRef('e.reseller_id', '=', 'o.reseller_id')
            .whereRef('e.chat_id', '=', 'o.chat_id')
            .where('e.status', 'in', ['pending', 'sending'])
            .whereRef('e.id', '<', 'o.id'),
        ),
      ),
    )
    .orderBy('o.id')
    .limit(limit)
    .execute();

/** One statement: of two processes claiming a row, one gets it; `next_at_ms` then says when the claim is stale. */
export async function claim(db: Tx, id: number, staleAtMs: number): Promise<boolean> {
  const r = await db.updateTable('telegram_outbox').set({ status: 'sending', next_at_ms: staleAtMs }).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function finish(db: Tx, id: number, set: { status: 'sent' | 'failed' | 'pending'; attempts?: number; next_at_ms?: number; sent_at?: number | null; last_error?: string | null }): Promise<void> {
  // a finished row keeps no text: a trial's password, a playlist link
  const done = set.status === 'pending' ? {} : { payload: '' };
  await db.updateTable('telegram_outbox').set({ ...set, ...done }).where('id', '=', id).where('status', '=', 'sending').execute();
}

/** Rows left `sending` by a process that died mid-send: Telegram may have them, so they are never sent again. */
export async function failAbandoned(db: Tx, nowMs: number): Promise<void> {
  await db.updateTable('telegram_outbox').set({ status: 'failed', payload: '', last_error: 'the sending process stopped; not sent again' }).where('status', '=', 'sending').where('next_at_ms', '<', nowMs).execute();
}

/** A bot whose token Telegram refuses: what it still had to send cannot go. */
export async function failPendingOf(db: Tx, resellerId: number, why: string): Promise<void> {
  await db.updateTable('telegram_outbox').set({ status: 'failed', payload: '', last_error: why }).where('reseller_id', '=', resellerId).where('status', '=', 'pending').execute();
}

export async function delayPendingOf(db: Tx, resellerId: number, untilMs: number): Promise<void> {
  await db.updateTable('telegram_outbox').set({ next_at_ms: untilMs }).where('reseller_id', '=', resellerId).where('status', '=', 'pending').where('next_at_ms', '<', untilMs).execute();
}

export async function pruneOutbox(db: Tx, before: number): Promise<void> {
  await db.deleteFrom('telegram_outbox').where('status', 'in', ['sent', 'failed']).where('created_at', '<', before).execute();
}
