import type { Tx } from '../../db/tx.ts';
import { nowMs, nowSec } from '../../lib/clock.ts';
import type { Send } from './bot-api.ts';
import * as repo from './repo.ts';
import { type Lang, languageOf, texts } from './texts.ts';

// What a bot will send, written to its queue in the transaction of what it tells: a message exists
// if and only if its change committed. The worker (worker.ts) sends the queue.

/**
 * A chat holds at most this many unsent messages; more are dropped. A stranger flooding a bot, or a
 * burst of news, then fills its own chat's queue only, and the worker's batch stays small.
 */
export const MAX_UNSENT_PER_CHAT = 20;

export async function queue(trx: Tx, resellerId: number, chatId: number, send: Send): Promise<void> {
  if ((await repo.unsentInChat(trx, resellerId, chatId, MAX_UNSENT_PER_CHAT)) >= MAX_UNSENT_PER_CHAT) return;
  await repo.enqueue(trx, { reseller_id: resellerId, chat_id: chatId, method: send.method, payload: JSON.stringify(send.payload), next_at_ms: nowMs(), created_at: nowSec() });
}

export const message = (text: string, extra: Record<string, unknown> = {}): Send => ({ method: 'sendMessage', payload: { text, parse_mode: 'HTML', link_preview_options: { is_disabled: true }, ...extra } });

/** The account's bot, when it can speak: connected, on, its token not refused. */
async function liveBot(trx: Tx, resellerId: number) {
  const bot = await repo.botOf(trx, resellerId);
  return bot && bot.enabled === 1 && bot.revoked_at === null ? bot : undefined;
}

/** A message to the account's own chat (its business news), in that chat's language; nothing when it has none. */
export async function tellOwner(trx: Tx, resellerId: number, say: (lang: Lang) => string): Promise<void> {
  const bot = await liveBot(trx, resellerId);
  if (!bot || bot.owner_chat_id === null) return;
  const chat = await repo.chatOf(trx, resellerId, bot.owner_chat_id);
  const lang = languageOf(chat?.language);
  await queue(trx, resellerId, bot.owner_chat_id, message(say(lang)));
}

/** A message to every chat of the account's bot linked to this line. */
export async function tellLine(trx: Tx, resellerId: number, lineId: number, say: (lang: Lang) => string): Promise<void> {
  if (!(await liveBot(trx, resellerId))) return;
  for (const chat of await repo.chatsOfLine(trx, resellerId, lineId)) await queue(trx, resellerId, chat.chat_id, message(say(languageOf(chat.language))));
}

/** credits.low for the account's chat: the balance went from `before` to under its threshold. */
export async function tellCreditsLow(trx: Tx, resellerId: number, before: number, after: number): Promise<void> {
  if (after >= before) return;
  const bot = await liveBot(trx, resellerId);
  if (!bot || bot.owner_chat_id === null || !(after < bot.credits_low_threshold && before >= bot.credits_low_threshold)) return;
  await tellOwner(trx, resellerId, (lang) => texts(lang).newsCreditsLow(after));
}
