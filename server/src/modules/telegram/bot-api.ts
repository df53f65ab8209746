import type { Api, GrammyError, HttpError } from 'grammy';
import type { Config } from '../../config.ts';

// Telegram's Bot API through grammY's Api client, at TELEGRAM_API_URL (https://api.telegram.org by
// default; the tests point it at a stand-in). What the panel asks of it: who a token is (getMe),
// where to send updates (setWebhook / deleteWebhook), and the sends the queue makes.

// grammY is loaded on the first call to Telegram, not with the app: most processes (and every test
// file but Telegram's) never talk to a bot, and its import costs a few hundred milliseconds.
let grammy: Promise<typeof import('grammy')> | undefined;
const loadGrammy = () => {
  grammy ??= import('grammy');
  return grammy;
};

export async function botApi(config: Pick<Config, 'telegramApiUrl' | 'integrationTimeoutMs'>, token: string): Promise<Api> {
  const { Api } = await loadGrammy();
  return new Api(token, { apiRoot: config.telegramApiUrl.replace(/\/+$/, ''), timeoutSeconds: Math.max(1, Math.ceil(config.integrationTimeoutMs / 1000)) });
}

// by name: the classes are in the lazily loaded module, and an error can only come from a call made through it
const isGrammyError = (err: unknown): err is GrammyError => err instanceof Error && err.name === 'GrammyError';
const isHttpError = (err: unknown): err is HttpError => err instanceof Error && err.name === 'HttpError';

export type Failure =
  /** the token is no longer valid (revoked in BotFather): the bot stops until a new one is saved */
  | { kind: 'revoked'; detail: string }
  /** Telegram's flood limit: nothing of this bot before `retryAfter` seconds */
  | { kind: 'slow_down'; retryAfter: number; detail: string }
  /** Telegram or the network failed: the same send is tried again later */
  | { kind: 'retry'; detail: string }
  /** Telegram refused this send (a chat that blocked the bot, a message already deleted): never again */
  | { kind: 'refused'; detail: string }
  /** no answer: Telegram may have taken it */
  | { kind: 'unknown'; detail: string };

/** Network failures in which the request cannot have reached Telegram: sending again cannot make a second message. */
const NEVER_ARRIVED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function networkCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown; error?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string') return e.code;
    e = (e.error ?? e.cause) as typeof e;
  }
  return undefined;
}

/**
 * What a failed call means for the queue. A request whose fate is unknown (a timeout, a connection
 * reset after sending) may have reached Telegram: `unknown`, not sent again unless repeating is
 * harmless (the caller decides).
 */
export function failureOf(err: unknown): Failure {
  if (isGrammyError(err)) {
    const detail = `${err.error_code} ${err.description}`.slice(0, 300);
    if (err.error_code === 401 || err.error_code === 404) return { kind: 'revoked', detail };
    if (err.error_code === 429) return { kind: 'slow_down', retryAfter: Math.max(1, err.parameters?.retry_after ?? 5), detail };
    if (err.error_code >= 500) return { kind: 'retry', detail };
    return { kind: 'refused', detail };
  }
  const detail = (isHttpError(err) ? String((err.error as Error)?.message ?? err.message) : String((err as Error)?.message ?? err)).slice(0, 300);
  const code = networkCode(err);
  return code && NEVER_ARRIVED.has(code) ? { kind: 'retry', detail } : { kind: 'unknown', detail };
}

/** A queued send: the method and its JSON payload (a photo as base64, uploaded as a file). */
export interface Send {
  method: 'sendMessage' | 'sendPhoto' | 'deleteMessage' | 'answerCallbackQuery';
  payload: Record<string, unknown>;
}

/** Sends that may be repeated without a second effect: after an unknown fate they are tried again. */
export const REPEATABLE: ReadonlySet<Send['method']> = new Set(['deleteMessage', 'answerCallbackQuery']);

export async function perform(api: Api, chatId: number, send: Send): Promise<void> {
  const p = send.payload;
  switch (send.method) {
    case 'sendMessage': {
      const { text, ...other } = p as { text: string };
      await api.sendMessage(chatId, text, other);
      return;
    }
    case 'sendPhoto': {
      const { photo_base64, ...other } = p as { photo_base64: string };
      const { InputFile } = await loadGrammy();
      await api.sendPhoto(chatId, new InputFile(Buffer.from(photo_base64, 'base64'), 'pix.png'), other);
      return;
    }
    case 'deleteMessage':
      await api.deleteMessage(chatId, p.message_id as number);
      return;
    case 'answerCallbackQuery': {
      const { callback_query_id, ...other } = p as { callback_query_id: string };
      await api.answerCallbackQuery(callback_query_id, other);
      return;
    }
  }
}
