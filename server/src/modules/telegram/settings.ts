import { createHash, randomBytes } from 'node:crypto';
import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, isUniqueViolation, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { processLogger } from '../../lib/logger.ts';
import { openSecret, sealSecret } from '../twofactor/service.ts';
import { botApi, failureOf } from './bot-api.ts';
import * as repo from './repo.ts';

// An account's bot, from its Telegram page: the BotFather token (sealed, write-only), checked with
// getMe and given a webhook with a secret of ours; on or off; the account's own chat, linked with a
// one-time code. docs/telegram.md.

export const TOKEN_PURPOSE = 'telegram_token';
const LINK_CODE_SECONDS = 15 * 60;
export const DEFAULT_LOW_CREDITS = 10;

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface SettingsInput {
  bot_token?: string | null;
  enabled?: boolean;
  credits_low_threshold?: number;
}

export async function getSettings(deps: Deps, user: AuthUser) {
  const db = deps.database.db;
  const bot = await repo.botOf(db, user.id);
  return {
    enabled: bot?.enabled === 1,
    bot_token_set: Boolean(bot),
    bot_username: bot?.bot_username ?? null,
    bot_name: bot?.bot_name ?? null,
    bot_link: bot ? `https://t.me/${bot.bot_username}` : null,
    revoked: bot ? bot.revoked_at !== null : false,
    owner_chat_linked: bot ? bot.owner_chat_id !== null : false,
    credits_low_threshold: bot?.credits_low_threshold ?? DEFAULT_LOW_CREDITS,
    public_url_configured: Boolean(deps.config.publicUrl),
    linked_chats: bot ? await repo.countLinkedChats(db, user.id) : 0,
  };
}

const webhookUrl = (publicUrl: string, botId: number) => `${publicUrl.replace(/\/+$/, '')}/api/telegram/${botId}/webhook`;

/** A Bot API call while saving: a refused token is the field's error, anything else Telegram's. */
async function asking<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const f = failureOf(err);
    if (f.kind === 'revoked') throw validation('bot_token', 'Telegram does not accept this token', 'INVALID_TOKEN');
    throw appError('UPSTREAM_ERROR', { params: { system: 'Telegram', detail: f.detail } });
  }
}

/**
 * Who the token is (getMe); a bot another account holds is refused before Telegram is told
 * anything (its webhook and secret stay that account's); then Telegram is told to send the bot's
 * updates here with a new secret (setWebhook).
 */
async function connect(deps: Deps, user: AuthUser, token: string) {
  const publicUrl = deps.config.publicUrl;
  // Telegram must reach the panel: without its public address no update could come
  if (!publicUrl) throw appError('NOT_CONFIGURED', { params: { what: 'PUBLIC_URL' } });
  const api = await botApi(deps.config, token);
  const me = await asking(() => api.getMe());
  const taken = await repo.botByTelegramId(deps.database.db, me.id);
  if (taken && taken.reseller_id !== user.id) throw appError('BOT_IN_USE');
  const secret = randomBytes(32).toString('base64url');
  await asking(() => api.setWebhook(webhookUrl(publicUrl, me.id), { secret_token: secret, allowed_updates: ['message', 'callback_query'] }));
  return { me, secret };
}

/** Telegram told to stop sending updates for a token the account no longer uses (best effort: the token may be revoked). */
async function disconnect(deps: Deps, resellerId: number, sealed: string): Promise<void> {
  const token = await openSecret(deps, resellerId, sealed, TOKEN_PURPOSE);
  if (!token) return;
  await (await botApi(deps.config, token))
    .deleteWebhook()
    .catch((err) => processLogger().warn({ err: failureOf(err).detail, resellerId }, 'telegram: deleteWebhook failed'));
}

export async function putSettings(deps: Deps, user: AuthUser, input: SettingsInput) {
  const db = deps.database.db;
  const own = await repo.botOf(db, user.id);
  if (input.bot_token === null) {
    if (own) {
      await withTx(deps.database, (trx) => repo.deleteBot(trx, user.id));
      await disconnect(deps, user.id, own.token_sealed);
    }
    return getSettings(deps, user);
  }
  const now = nowSec();
  if (input.bot_token !== undefined) {
    const token = input.bot_token.trim();
    if (!/^\d{1,15}:[A-Za-z0-9_-]{20,100}$/.test(token)) throw validation('bot_token', 'the token BotFather gave: digits, a colon, then letters', 'INVALID_TOKEN');
    const { me, secret } = await connect(deps, user, token);
    const sealed = await sealSecret(deps, user.id, token, TOKEN_PURPOSE);
    await withTx(deps.database, async (trx) => {
      const taken = await repo.botByTelegramId(trx, me.id);
      if (taken && taken.reseller_id !== user.id) throw appError('BOT_IN_USE');
      const current = await repo.botOf(trx, user.id);
      const same = current?.bot_id === me.id;
      // another bot: the chats of the old one are not this one's
      if (current && !same) await repo.deleteBot(trx, user.id);
      await repo.saveBot(trx, {
        reseller_id: user.id,
        bot_id: me.id,
        bot_username: me.username,
        bot_name: me.first_name.slice(0, 128),
        token_sealed: sealed,
        secret_hash: sha256(secret),
        enabled: input.enabled === undefined ? (current?.enabled ?? 1) : input.enabled ? 1 : 0,
        revoked_at: null,
        owner_chat_id: same ? (current?.owner_chat_id ?? null) : null,
        credits_low_threshold: input.credits_low_threshold ?? current?.credits_low_threshold ?? DEFAULT_LOW_CREDITS,
        updated_at: now,
      });
    }).catch((err) => {
      // two accounts saving one bot at once: the unique bot id lets one of them have it
      throw isUniqueViolation(err) ? appError('BOT_IN_USE') : err;
    });
    if (own && own.bot_id !== me.id) await disconnect(deps, user.id, own.token_sealed);
    return getSettings(deps, user);
  }
  if (!own) {
    if (input.enabled) throw validation('enabled', 'paste the bot token first', 'REQUIRED_TO_ENABLE');
    if (input.credits_low_threshold !== undefined) throw validation('bot_token', 'paste the bot token first', 'REQUIRED');
    return getSettings(deps, user);
  }
  await withTx(deps.database, (trx) =>
    repo.updateBot(trx, user.id, {
      ...(input.enabled !== undefined ? { enabled: input.enabled ? 1 : 0 } : {}),
      ...(input.credits_low_threshold !== undefined ? { credits_low_threshold: input.credits_low_threshold } : {}),
      updated_at: now,
    }),
  );
  return getSettings(deps, user);
}

/**
 * A one-time code for the account's own chat: `/start <code>` to its bot (the t.me link does it).
 * 96 random bits (a deep link's parameter takes 64 characters of A-Za-z0-9_-): too many to guess
 * by messaging the bot.
 */
export async function newLinkCode(deps: Deps, user: AuthUser) {
  const bot = await repo.botOf(deps.database.db, user.id);
  if (!bot) throw appError('NOT_FOUND', { params: { what: 'Telegram bot' } });
  const code = randomBytes(12).toString('base64url');
  const expires = nowSec() + LINK_CODE_SECONDS;
  await withTx(deps.database, (trx) => repo.updateBot(trx, user.id, { link_code_hash: sha256(`${bot.bot_id}:${code}`), link_code_expires_at: expires }));
  return { code, expires_at: expires, link: `https://t.me/${bot.bot_username}?start=${code}` };
}

export async function unlinkOwnerChat(deps: Deps, user: AuthUser): Promise<void> {
  if (!(await repo.botOf(deps.database.db, user.id))) throw appError('NOT_FOUND', { params: { what: 'Telegram bot' } });
  await withTx(deps.database, (trx) => repo.updateBot(trx, user.id, { owner_chat_id: null, updated_at: nowSec() }));
}
