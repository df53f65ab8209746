// The Telegram routes' types, written by hand: the server's routes are built on another branch and
// are not in server/openapi.json yet. Once they are (`npm run api:schema && npm run api:types`), delete
// the `declare module` block below: the aliases at the end then read the generated schema.d.ts.
// The browser tests import these types too (hence the `.ts` extension, as api/types.ts's own imports).
import type { Answer, ApiErrorBody, Body } from '../../api/types.ts';

interface Json<T> {
  headers: { [name: string]: unknown };
  content: { 'application/json': T };
}
interface NoContent {
  headers: { [name: string]: unknown };
  content?: never;
}
interface NoParams {
  query?: never;
  header?: never;
  path?: never;
  cookie?: never;
}
interface Failures {
  400: Json<ApiErrorBody>;
  401: Json<ApiErrorBody>;
  403: Json<ApiErrorBody>;
  502: Json<ApiErrorBody>;
  503: Json<ApiErrorBody>;
}

/** GET/PUT /api/telegram/settings: the account's own Telegram bot (the token is write-only). */
interface Settings {
  enabled: boolean;
  bot_token_set: boolean;
  bot_username: string | null;
  bot_name: string | null;
  /** https://t.me/<bot_username> */
  bot_link: string | null;
  /** Telegram refused the saved token (revoked in @BotFather): a new one must be pasted. */
  revoked: boolean;
  owner_chat_linked: boolean;
  credits_low_threshold: number;
  public_url_configured: boolean;
  /** customer chats linked to lines */
  linked_chats: number;
}

declare module '../../api/schema.d.ts' {
  interface paths {
    '/api/telegram/settings': {
      parameters: NoParams;
      get: { parameters: NoParams; requestBody?: never; responses: { 200: Json<Settings> } & Failures };
      put: {
        parameters: NoParams;
        requestBody?: { content: { 'application/json': { bot_token?: string | null; enabled?: boolean; credits_low_threshold?: number } } };
        responses: { 200: Json<Settings> } & Failures;
      };
      post?: never;
      delete?: never;
    };
    '/api/telegram/link-code': {
      parameters: NoParams;
      get?: never;
      put?: never;
      /** A one-time code (15 minutes) that links the account's own chat: `/start <code>` to its bot. */
      post: { parameters: NoParams; requestBody?: never; responses: { 200: Json<{ code: string; expires_at: number; link: string }> } & Failures };
      delete?: never;
    };
    '/api/telegram/owner-chat': {
      parameters: NoParams;
      get?: never;
      put?: never;
      post?: never;
      delete: { parameters: NoParams; requestBody?: never; responses: { 204: NoContent } & Failures };
    };
  }
}

export type TelegramSettings = Answer<'/api/telegram/settings', 'get'>;
export type TelegramSettingsBody = Body<'/api/telegram/settings', 'put'>;
export type TelegramLinkCode = Answer<'/api/telegram/link-code', 'post'>;
