import { timingSafeEqual } from 'node:crypto';
import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { AppError, appError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { processLogger } from '../../lib/logger.ts';
import { currentBalance } from '../credits/service.ts';
import { createCharge, customerLineOf, lineView } from '../payments/service.ts';
import { authenticateLine } from '../player/service.ts';
import { originalLinks, panelOrigin } from '../shortlinks/service.ts';
import { trialForChat, trialPageOpen } from '../trialpage/service.ts';
import type { Send } from './bot-api.ts';
import { message, queue } from './outbox.ts';
import * as repo from './repo.ts';
import { sha256 } from './settings.ts';
import { type Lang, dateTime, duration, languageOf, money, texts } from './texts.ts';

// What a bot does with an update Telegram sends to its webhook (docs/telegram.md): checked by the
// secret given at setWebhook, handled once per update_id, in private chats only. Customers link
// their line (/entrar, the player credentials and their throttle; that message deleted), see it
// (/status), renew it by PIX (/renovar), ask for a trial (/teste, their shared contact's number)
// and unlink (/sair); the account links its own chat with a one-time code (/start <code>) and asks
// its balance there (/saldo). Every answer goes through the bot's queue.

interface User {
  id: number;
  language_code?: string;
}
export interface Update {
  update_id: number;
  message?: {
    message_id: number;
    chat: { id: number; type: string };
    from?: User;
    text?: string;
    contact?: { phone_number: string; user_id?: number };
  };
  callback_query?: { id: string; from: User; data?: string; message?: { message_id: number; chat: { id: number; type: string } } };
}

interface Chat {
  deps: Deps;
  bot: repo.BotRow;
  chat: repo.ChatRow;
  from: User;
  lang: Lang;
}

const sameSecret = (given: string, hash: string) => timingSafeEqual(Buffer.from(sha256(given)), Buffer.from(hash));

/** Checks the update's secret (401 INVALID_SIGNATURE, nothing done) and handles it once. */
export async function onUpdate(deps: Deps, botId: number, secret: string | undefined, update: Update): Promise<void> {
  const db = deps.database.db;
  const found = await repo.botWithAccount(db, botId);
  if (!found || !secret || !sameSecret(secret, found.secret_hash)) throw appError('INVALID_SIGNATURE');
  const { account_active: active, ...bot } = found;
  // off, refused by Telegram, or its account blocked or removed: the bot answers nothing
  if (bot.enabled !== 1 || bot.revoked_at !== null || !active) return;
  if (!(await repo.firstTimeUpdate(db, bot.bot_id, update.update_id, nowSec()))) return;
  const where = update.message?.chat ?? update.callback_query?.message?.chat;
  const from = update.message?.from ?? update.callback_query?.from;
  // a bot added to a group would read passwords before everyone: it answers private chats only
  if (where?.type !== 'private' || !from) return;
  const lang = languageOf(from.language_code);
  const chat = await withTx(deps.database, (trx) => repo.touchChat(trx, bot.reseller_id, where.id, lang, nowSec()));
  const c: Chat = { deps, bot, chat, from, lang };
  try {
    if (update.callback_query) await onButton(c, update.callback_query);
    else if (update.message?.contact) await onContact(c, update.message.contact);
    else if (update.message?.text?.startsWith('/')) await onCommand(c, update.message.text, update.message.message_id);
    else await say(c, texts(lang).unknown);
  } catch (err) {
    // handled once: Telegram is not asked to send it again, the customer is told to try again
    processLogger().error({ err, resellerId: bot.reseller_id }, 'telegram: an update failed');
    await say(c, texts(lang).failed);
  }
}

async function sendAll(c: Chat, sends: Send[]) {
  await withTx(c.deps.database, async (trx) => {
    for (const s of sends) await queue(trx, c.bot.reseller_id, c.chat.chat_id, s);
  });
}
const say = (c: Chat, text: string, extra?: Record<string, unknown>) => sendAll(c, [message(text, extra)]);

async function onCommand(c: Chat, text: string, messageId: number) {
  const [head = '', ...args] = text.trim().split(/\s+/);
  const command = head.slice(1).split('@')[0]?.toLowerCase();
  const t = texts(c.lang);
  const isOwner = c.bot.owner_chat_id === c.chat.chat_id;
  switch (command) {
    case 'start':
      if (args[0]) return linkOwner(c, args[0]);
      return say(c, isOwner ? t.ownerWelcome : t.welcome(c.bot.bot_name, await trialPageOpen(c.deps, c.bot.reseller_id)));
    case 'entrar':
      return signIn(c, args, messageId);
    case 'status':
      return status(c);
    case 'renovar':
      return offers(c);
    case 'teste':
      if (!(await trialPageOpen(c.deps, c.bot.reseller_id))) return say(c, t.trialOff);
      await withTx(c.deps.database, (trx) => repo.updateChat(trx, c.chat.id, { awaiting_contact: 1, updated_at: nowSec() }));
      return say(c, t.trialAsk, { reply_markup: { keyboard: [[{ text: t.trialButton, request_contact: true }]], resize_keyboard: true, one_time_keyboard: true } });
    case 'sair':
      await withTx(c.deps.database, (trx) => repo.updateChat(trx, c.chat.id, { line_id: null, line_password_hash: null, awaiting_contact: 0, updated_at: nowSec() }));
      return say(c, t.signedOut, { reply_markup: { remove_keyboard: true } });
    case 'saldo':
      if (!isOwner) return say(c, t.ownerOnly);
      return say(c, t.balance(await currentBalance(c.deps.database.db, c.bot.reseller_id)));
    default:
      return say(c, t.unknown);
  }
}

/** `/start <code>`: the account's own chat, with the one-time code of its Telegram page. */
async function linkOwner(c: Chat, code: string) {
  const t = texts(c.lang);
  const linked = await withTx(c.deps.database, async (trx) => {
    const bot = await repo.botOf(trx, c.bot.reseller_id);
    const right = bot?.link_code_hash && bot.link_code_expires_at !== null && bot.link_code_expires_at >= nowSec() && sameSecret(`${bot.bot_id}:${code}`, bot.link_code_hash);
    if (!right) return false;
    // one time: the code is spent
    await repo.updateBot(trx, c.bot.reseller_id, { owner_chat_id: c.chat.chat_id, link_code_hash: null, link_code_expires_at: null, updated_at: nowSec() });
    return true;
  });
  return say(c, linked ? t.ownerLinked(c.bot.bot_username) : t.badCode);
}

/** `/entrar usuário senha`: the player credentials (and their throttle, per Telegram account); the message holding them is deleted. */
async function signIn(c: Chat, args: string[], messageId: number) {
  const t = texts(c.lang);
  const [username, password] = args;
  // the message holding a password goes first, whatever follows
  if (args.length > 1) await sendAll(c, [{ method: 'deleteMessage', payload: { message_id: messageId } }]);
  if (!username || !password) return say(c, t.entrarUsage);
  let line: Awaited<ReturnType<typeof authenticateLine>>;
  try {
    line = await authenticateLine(c.deps, { username: username.slice(0, 50), password: password.slice(0, 50), ip: `tg.${c.from.id}` });
  } catch (err) {
    if (err instanceof AppError && err.code === 'RATE_LIMITED') return say(c, t.tooManyTries);
    throw err;
  }
  // the account's bot speaks for the account's own lines only: any other is a wrong password
  if (!line || line.member_id !== c.bot.reseller_id || line.deleted_at !== null) return say(c, t.wrongCredentials);
  const found = line;
  await withTx(c.deps.database, async (trx) => {
    await repo.updateChat(trx, c.chat.id, { line_id: found.id, line_password_hash: sha256(found.password), updated_at: nowSec() });
    await queue(trx, c.bot.reseller_id, c.chat.chat_id, message(t.signedIn(found.username)));
  });
}

// the links in messages are the panel's public address (set: a bot cannot be connected without it)
const origin = (deps: Deps) => panelOrigin(deps.config, deps.config.publicUrl ?? '');

/**
 * The chat's line id while the link holds: the line still this account's, not removed, its
 * password the one the chat signed in with. Otherwise the chat is unlinked (a reseller changing a
 * password cuts a former customer off; a line handed to another account leaves this bot) and told so.
 */
async function linkedLineId(c: Chat): Promise<number | undefined> {
  const t = texts(c.lang);
  if (c.chat.line_id === null) return void (await say(c, t.notLinked));
  const line = await customerLineOf(c.deps, c.chat.line_id);
  if (line && line.deleted_at === null && line.member_id === c.bot.reseller_id && sha256(line.password) === c.chat.line_password_hash) return line.id;
  await withTx(c.deps.database, (trx) => repo.updateChat(trx, c.chat.id, { line_id: null, line_password_hash: null, updated_at: nowSec() }));
  await say(c, t.notLinked);
  return undefined;
}

/** The chat's line as the customer page shows it, or undefined (told why) when there is none. */
async function linkedLine(c: Chat) {
  const id = await linkedLineId(c);
  return id === undefined ? undefined : lineView(c.deps, id, origin(c.deps));
}

async function status(c: Chat) {
  const line = await linkedLine(c);
  if (!line) return;
  const tz = c.deps.config.timeZone;
  return say(
    c,
    texts(c.lang).status({
      user: line.username,
      expires: dateTime(c.lang, line.exp_date, tz),
      expired: line.exp_date <= nowSec(),
      pkg: line.package_name ?? '—',
      screens: line.screens,
      playlist: line.playlist_url,
      blocked: !line.enabled,
      trial: line.is_trial,
    }),
  );
}

/** `/renovar`: the account's PIX offers as buttons; a button's press makes the charge (onButton). */
async function offers(c: Chat) {
  const t = texts(c.lang);
  const line = await linkedLine(c);
  if (!line) return;
  if (!line.enabled) return say(c, t.blocked);
  if (line.offers.length === 0) return say(c, t.noOffers);
  const keyboard = line.offers.map((o) => [{ text: t.offer(o.package_name, duration(c.lang, o.duration, o.duration_in), money(c.lang, o.price_cents)), callback_data: `renew:${o.package_id}` }]);
  return say(c, t.chooseOffer, { reply_markup: { inline_keyboard: keyboard } });
}

/**
 * An offer's button: a PIX charge (the customer page's), its QR as a photo and its copy-paste code.
 * The press's id is the charge's Idempotency-Key: Telegram delivering the press twice makes one charge.
 */
async function onButton(c: Chat, q: NonNullable<Update['callback_query']>) {
  const t = texts(c.lang);
  const done: Send = { method: 'answerCallbackQuery', payload: { callback_query_id: q.id } };
  const m = /^renew:(\d{1,9})$/.exec(q.data ?? '');
  if (!m) return sendAll(c, [done, message(t.unknown)]);
  await sendAll(c, [done]);
  const lineId = await linkedLineId(c);
  if (lineId === undefined) return;
  let charge: Awaited<ReturnType<typeof createCharge>>;
  try {
    // keyed on the offers' message and the package: a double tap on one button makes one charge
    charge = await createCharge(c.deps, lineId, Number(m[1]), `tg-${c.chat.chat_id}-${q.message?.message_id ?? q.id}-${m[1]}`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const why = err.code === 'LINE_BLOCKED' ? t.blocked : err.code === 'NOT_CONFIGURED' || err.code === 'VALIDATION' ? t.noOffers : err.code === 'NOT_FOUND' ? t.lineGone : t.failed;
    return say(c, why);
  }
  if (charge.status !== 'pending' || !charge.qr_code || !charge.qr_code_base64) return say(c, t.pixFailed);
  const until = dateTime(c.lang, charge.expires_at, c.deps.config.timeZone);
  return sendAll(c, [
    { method: 'sendPhoto', payload: { photo_base64: charge.qr_code_base64, caption: t.pixCaption(money(c.lang, charge.amount_cents), until) } },
    message(t.pixCode(charge.qr_code)),
  ]);
}

/** `/teste`'s answer: the customer's own contact (its user_id is theirs), and a trial by the account's trial page rules. */
async function onContact(c: Chat, contact: NonNullable<NonNullable<Update['message']>['contact']>) {
  const t = texts(c.lang);
  if (c.chat.awaiting_contact !== 1) return say(c, t.unknown);
  if (contact.user_id !== c.from.id) return say(c, t.trialNotOwn);
  const deps = c.deps;
  try {
    await trialForChat(deps, c.bot.reseller_id, contact.phone_number, `tg.${c.from.id}`, async (trx, line, pageMessage) => {
      const links = await originalLinks(trx, line, origin(deps));
      await repo.updateChat(trx, c.chat.id, { line_id: line.id, line_password_hash: sha256(line.password), awaiting_contact: 0, updated_at: nowSec() });
      const ready = t.trialReady({ intro: pageMessage, user: line.username, password: line.password, playlist: links.m3u8, expires: dateTime(c.lang, line.exp_date, deps.config.timeZone) });
      await queue(trx, c.bot.reseller_id, c.chat.chat_id, message(ready, { reply_markup: { remove_keyboard: true } }));
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const why: Record<string, string> = { VALIDATION: t.trialBadNumber, TRIAL_ALREADY_USED: t.trialUsed, TRIAL_LIMIT: t.trialLimit, NOT_CONFIGURED: t.trialOff, NOT_FOUND: t.trialOff };
    await withTx(deps.database, (trx) => repo.updateChat(trx, c.chat.id, { awaiting_contact: 0, updated_at: nowSec() }));
    return say(c, why[err.code] ?? t.failed, { reply_markup: { remove_keyboard: true } });
  }
}
