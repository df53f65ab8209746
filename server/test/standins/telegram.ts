import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A Bot API stand-in on a real socket: `POST /bot<token>/<method>` with a JSON body, or a multipart
// one when a file is uploaded (grammY's sendPhoto), answering as Telegram does: `{ok: true, result}`
// or `{ok: false, error_code, description, parameters?}`. It knows the bots it is given, records
// every call, and answers the next calls of a method with what a test queued (a 429, a 500, a 401).

export interface BotCall {
  method: string;
  token: string;
  /** the JSON body, or the multipart fields (a file field holds `{file: <bytes>}`) */
  body: Record<string, unknown>;
}

export interface TelegramStandin {
  url: string;
  calls: BotCall[];
  /** the calls of one method, optionally to one chat */
  sent(method: string, chatId?: number): BotCall[];
  /** the next `times` calls of `method` answer this instead (status 0: no answer at all, the caller's deadline fires) */
  failNext(method: string, answer: { status: number; body: Record<string, unknown> }, times?: number): void;
  /** a token Telegram no longer accepts (every call: 401) */
  revoke(token: string): void;
  close(): Promise<void>;
}

/** A multipart body's fields; a file field (`attach://<part>`, as grammY uploads) holds `{file: <bytes>}`. */
function multipart(body: Buffer, contentType: string): Record<string, unknown> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return {};
  const sep = `--${boundary[1] ?? boundary[2]}`;
  const parts: Record<string, unknown> = {};
  for (const part of body.toString('latin1').split(sep)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /name="([^"]+)"/i.exec(head)?.[1];
    if (!name) continue;
    const value = Buffer.from(part.slice(split + 4).replace(/\r\n$/, ''), 'latin1');
    parts[name] = /filename=/i.test(head) ? { file: value } : value.toString('utf8');
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'object') continue; // an attachment, placed where it is referred to
    const attached = /^attach:\/\/(.+)$/.exec(value as string);
    out[name] = attached ? parts[attached[1]!] : value;
  }
  return out;
}

export async function startTelegram(bots: Record<string, { id: number; username: string; first_name: string }>): Promise<TelegramStandin> {
  const calls: BotCall[] = [];
  const failures = new Map<string, { status: number; body: Record<string, unknown> }[]>();
  const revoked = new Set<string>();
  let messageId = 1000;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      const send = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (!m || req.method !== 'POST') return send(404, { ok: false, error_code: 404, description: 'Not Found' });
      const [, token = '', method = ''] = m;
      const raw = Buffer.concat(chunks);
      const type = req.headers['content-type'] ?? '';
      let body: Record<string, unknown> = {};
      if (type.startsWith('multipart/form-data')) body = multipart(raw, type);
      else if (raw.length) body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      calls.push({ method, token, body });
      const bot = bots[token];
      if (!bot || revoked.has(token)) return send(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const queued = failures.get(method)?.shift();
      if (queued?.status === 0) return; // taken, never answered
      if (queued) return send(queued.status, queued.body);
      const chat = { id: Number(body.chat_id), type: 'private' };
      switch (method) {
        case 'getMe':
          return send(200, { ok: true, result: { ...bot, is_bot: true } });
        case 'setWebhook':
        case 'deleteWebhook':
        case 'deleteMessage':
        case 'answerCallbackQuery':
          return send(200, { ok: true, result: true });
        case 'sendMessage':
          return send(200, { ok: true, result: { message_id: ++messageId, date: Math.floor(Date.now() / 1000), chat, text: body.text } });
        case 'sendPhoto':
          return send(200, { ok: true, result: { message_id: ++messageId, date: Math.floor(Date.now() / 1000), chat, photo: [{ file_id: 'f', file_unique_id: 'u', width: 300, height: 300 }] } });
        default:
          return send(400, { ok: false, error_code: 400, description: `Bad Request: method ${method} not known to the stand-in` });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    sent: (method, chatId) => calls.filter((c) => c.method === method && (chatId === undefined || Number(c.body.chat_id) === chatId)),
    failNext(method, answer, times = 1) {
      const list = failures.get(method) ?? [];
      for (let i = 0; i < times; i++) list.push(answer);
      failures.set(method, list);
    },
    revoke: (token) => void revoked.add(token),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
