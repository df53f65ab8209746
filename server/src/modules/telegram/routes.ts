import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import * as service from './service.ts';

// An account's Telegram bot (docs/telegram.md): its settings and the link of its own chat, and the
// webhook Telegram sends the bot's updates to (no session: the secret header).

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Settings = Type.Object(
  {
    enabled: Type.Boolean(),
    bot_token_set: Type.Boolean({ description: 'a token is saved (it is never sent back)' }),
    bot_username: Nullable(Type.String()),
    bot_name: Nullable(Type.String()),
    bot_link: Nullable(Type.String({ description: 'https://t.me/<bot_username>' })),
    revoked: Type.Boolean({ description: 'Telegram refused the saved token (revoked in BotFather): the bot is silent until a new one is saved' }),
    owner_chat_linked: Type.Boolean({ description: "the account's own chat gets its business news" }),
    credits_low_threshold: Type.Integer({ description: 'the chat is told when the balance falls under this' }),
    public_url_configured: Type.Boolean({ description: 'the bot needs PUBLIC_URL: Telegram sends its updates there' }),
    linked_chats: Type.Integer({ description: 'customer chats linked to a line' }),
  },
  { title: 'TelegramSettings' },
);

/** The signed-in account's bot. API keys cannot call these (no scope). */
export function telegramRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['telegram'];
  r.get('/telegram/settings', { schema: { tags, response: { 200: Settings } } }, (req) => service.getSettings(deps, req.user));
  r.put(
    '/telegram/settings',
    {
      schema: {
        tags,
        description: "A token is checked with Telegram (getMe; 400 VALIDATION INVALID_TOKEN when refused) and the bot's webhook set to PUBLIC_URL (503 NOT_CONFIGURED without it); null disconnects the bot.",
        errors: { 409: ['BOT_IN_USE'], 502: ['UPSTREAM_ERROR'], 503: ['NOT_CONFIGURED'] },
        body: Type.Object({
          bot_token: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200, description: "BotFather's token; write-only" }))),
          enabled: Type.Optional(Type.Boolean({ description: 'on needs a token (400 VALIDATION REQUIRED_TO_ENABLE)' })),
          credits_low_threshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
        }),
        response: { 200: Settings },
      },
    },
    (req) => service.putSettings(deps, req.user, req.body),
  );
  r.post(
    '/telegram/link-code',
    {
      schema: {
        tags,
        description: "A one-time code (15 minutes) that links the account's own chat: `/start <code>` to the bot, which the link does.",
        errors: { 404: ['NOT_FOUND'] },
        response: { 200: Type.Object({ code: Type.String(), expires_at: Type.Integer(), link: Type.String({ description: 'https://t.me/<bot>?start=<code>' }) }, { title: 'TelegramLinkCode' }) },
      },
    },
    (req) => service.newLinkCode(deps, req.user),
  );
  r.delete('/telegram/owner-chat', { schema: { tags, errors: { 404: ['NOT_FOUND'] }, response: { 204: Type.Null() } } }, async (req, reply) => {
    await service.unlinkOwnerChat(deps, req.user);
    return reply.status(204).send(null);
  });
}

/** Telegram's ids fit in 52 bits (a chat's may be negative) */
const TgId = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const User = Type.Object({ id: TgId, language_code: Type.Optional(Type.String({ maxLength: 35 })) });
const Chat = Type.Object({ id: TgId, type: Type.String({ maxLength: 20 }) });

/** Telegram's updates for a bot: only what the bot reads of them is kept (the rest is dropped by the validator). */
export function publicTelegramRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/telegram/:bot_id/webhook',
    {
      schema: {
        tags: ['telegram'],
        security: [],
        description: 'Where Telegram sends a bot\'s updates; only with the X-Telegram-Bot-Api-Secret-Token given at setWebhook (else 401, nothing done).',
        errors: { 401: ['INVALID_SIGNATURE'] },
        params: Type.Object({ bot_id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) }),
        body: Type.Object({
          update_id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
          message: Type.Optional(
            Type.Object({
              message_id: TgId,
              chat: Chat,
              from: Type.Optional(User),
              text: Type.Optional(Type.String({ maxLength: 4096 })),
              contact: Type.Optional(Type.Object({ phone_number: Type.String({ maxLength: 40 }), user_id: Type.Optional(TgId) })),
            }),
          ),
          callback_query: Type.Optional(
            Type.Object({
              id: Type.String({ maxLength: 64 }),
              from: User,
              data: Type.Optional(Type.String({ maxLength: 64 })),
              message: Type.Optional(Type.Object({ message_id: TgId, chat: Chat })),
            }),
          ),
        }),
        response: { 200: Type.Object({ ok: Type.Boolean() }) },
      },
    },
    async (req) => {
      await service.onUpdate(deps, req.params.bot_id, req.headers['x-telegram-bot-api-secret-token'] as string | undefined, req.body);
      return { ok: true };
    },
  );
}
