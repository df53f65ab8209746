import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordSecret } from './secrets.ts';

/** The bot a known token belongs to (getMe's answer). */
export const STAND_IN_BOT = { id: 7_000_001, is_bot: true, first_name: 'Loja Bot', username: 'loja_teste_bot' } as const;

/** One Bot API call the stand-in received: its method, the token in its path, its parameters (JSON, form or multipart fields), the HTTP status it got. */
export interface TelegramCall {
  method: string;
  token: string;
  params: Record<string, unknown>;
  status: number;
}

export interface TelegramStandIn {
  /** TELEGRAM_API_URL for the server under test (the Bot API's root: `<url>/bot<token>/<method>`). */
  url: string;
  /** Every call received, in order (refused ones too: an unknown or revoked token got 401). */
  calls: TelegramCall[];
  /** The calls of one method the stand-in answered (the known token, not revoked). */
  callsOf(method: string): TelegramCall[];
  /** The webhook set last with the known token (`setWebhook`), undefined before one or after `deleteWebhook`. */
  webhook(): { url: string; secret_token?: string } | undefined;
  /** The texts sent (`sendMessage`, answered) to a chat. */
  sentTo(chatId: number): string[];
  /** From now on the known token is refused as Telegram does once it is revoked in @BotFather (401 to every call). */
  revoke(): void;
  close(): Promise<void>;
}

type Result = { status: number; body: unknown };
const ok = (result: unknown): Result => ({ status: 200, body: { ok: true, result } });
const UNAUTHORIZED: Result = { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };

/** A multipart/form-data body's fields: text fields as their text, files as `{ filename, size }` (grammY sends files so). */
function multipartFields(body: Buffer, contentType: string): Record<string, unknown> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return {};
  const fields: Record<string, unknown> = {};
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start, next);
    const split = part.indexOf('\r\n\r\n');
    if (split !== -1) {
      const head = part.subarray(0, split).toString();
      const content = part.subarray(split + 4, part.length - 2); // the CRLF before the next delimiter
      const name = /name="([^"]*)"/i.exec(head)?.[1];
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      if (name) fields[name] = filename === undefined ? content.toString() : { filename, size: content.length };
    }
    at = next;
  }
  return fields;
}

/** A call's parameters: the query string, then the body (JSON, urlencoded or multipart). */
function paramsOf(req: http.IncomingMessage, body: Buffer, query: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = Object.fromEntries(query);
  const type = req.headers['content-type'] ?? '';
  if (body.length === 0) return params;
  if (type.includes('application/json')) return { ...params, ...(JSON.parse(body.toString()) as Record<string, unknown>) };
  if (type.includes('application/x-www-form-urlencoded')) return { ...params, ...Object.fromEntries(new URLSearchParams(body.toString())) };
  if (type.includes('multipart/form-data')) return { ...params, ...multipartFields(body, type) };
  return params;
}

/** A chat id as Telegram answers it: a number when it is one (form and multipart bodies carry it as text). */
const chatIdOf = (v: unknown): number | string => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : (v as number | string));

/**
 * Telegram's Bot API on a socket for one bot's `token`: `POST /bot<token>/<method>` with a JSON,
 * form or multipart body, answered `{ ok: true, result }` as Telegram does: getMe (STAND_IN_BOT),
 * setWebhook/deleteWebhook/getWebhookInfo (the webhook kept), sendMessage/sendPhoto/editMessageText
 * (a message), and `true` for any other method (deleteMessage, answerCallbackQuery, setMyCommands…).
 * Any other token, or the token once `revoke()`d, gets 401 `Unauthorized`. Every call is recorded.
 */
export async function startTelegram(opts: { token: string }): Promise<TelegramStandIn> {
  // the bot's token and the webhook's secret are secrets: no server log may hold them (support/log-check.ts)
  recordSecret('telegram bot token', opts.token);
  const calls: TelegramCall[] = [];
  let webhook: { url: string; secret_token?: string } | undefined;
  let revoked = false;
  let messageId = 0;

  const message = (params: Record<string, unknown>, extra: Record<string, unknown>) => ({
    message_id: ++messageId,
    from: STAND_IN_BOT,
    chat: { id: chatIdOf(params.chat_id), type: 'private' },
    date: Math.floor(Date.now() / 1000),
    ...extra,
  });

  function answer(method: string, params: Record<string, unknown>): Result {
    switch (method) {
      case 'getMe':
        return ok(STAND_IN_BOT);
      case 'setWebhook': {
        const secret = typeof params.secret_token === 'string' ? params.secret_token : undefined;
        recordSecret('telegram webhook secret', secret);
        webhook = { url: String(params.url ?? ''), ...(secret === undefined ? {} : { secret_token: secret }) };
        return { status: 200, body: { ok: true, result: true, description: 'Webhook was set' } };
      }
      case 'deleteWebhook':
        webhook = undefined;
        return { status: 200, body: { ok: true, result: true, description: 'Webhook was deleted' } };
      case 'getWebhookInfo':
        return ok({ url: webhook?.url ?? '', has_custom_certificate: false, pending_update_count: 0 });
      case 'sendMessage':
      case 'editMessageText':
        return ok(message(params, { text: String(params.text ?? '') }));
      case 'sendPhoto':
        return ok(
          message(params, {
            photo: [{ file_id: `photo-${messageId + 1}`, file_unique_id: `p${messageId + 1}`, width: 512, height: 512, file_size: 1024 }],
            ...(params.caption === undefined ? {} : { caption: String(params.caption) }),
          }),
        );
      default:
        return ok(true);
    }
  }

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const send = ({ status, body }: Result) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!m) return send({ status: 404, body: { ok: false, error_code: 404, description: 'Not Found' } });
      const token = decodeURIComponent(m[1] as string);
      const method = m[2] as string;
      let params: Record<string, unknown>;
      try {
        params = paramsOf(req, Buffer.concat(parts), url.searchParams);
      } catch {
        return send({ status: 400, body: { ok: false, error_code: 400, description: "Bad Request: can't parse request body" } });
      }
      const result = token !== opts.token || revoked ? UNAUTHORIZED : answer(method, params);
      calls.push({ method, token, params, status: result.status });
      return send(result);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));

  const answered = () => calls.filter((c) => c.status === 200);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    callsOf: (method) => answered().filter((c) => c.method === method),
    webhook: () => webhook,
    sentTo: (chatId) =>
      answered()
        .filter((c) => c.method === 'sendMessage' && chatIdOf(c.params.chat_id) === chatId)
        .map((c) => String(c.params.text ?? '')),
    revoke: () => {
      revoked = true;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
