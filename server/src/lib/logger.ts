import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';

// The server's log: one JSON object a line (pino), request lines with their request id (`reqId`).
// No secret is ever written, at any level: the fields that carry them are redacted, and URLs and
// free text (messages, errors) are scrubbed of passwords and tokens (docs/configuration.md, "Logs").

export const REDACTED = '[REDACTED]';

/** Query parameters whose values are secrets: passwords, tokens, keys, signatures, codes. */
const SECRET_PARAM = /pass|pwd|token|secret|key|sig|auth|otp|^t$|^code$/i;

/** Paths whose values are secrets wherever they are logged (pino's redact syntax). */
const SECRET_FIELDS = [
  'password',
  'new_password',
  'current_password',
  'old_password',
  'token',
  'device_token',
  'download_token',
  'secret',
  'api_key',
  'apiKey',
  'key',
  'recovery_codes',
  'mercadopago_access_token',
  'mercadopago_webhook_secret',
  'bot_token',
  'secret_token',
  'authorization',
  'cookie',
];
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-edge-key', 'x-signature', 'x-original-uri', 'proxy-authorization', 'x-telegram-bot-api-secret-token'];

const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  // bodies and answers, at any of the places one could be logged
  ...['body', 'payload', 'req.body', 'request.body', 'query', 'req.query'].flatMap((p) => [...SECRET_FIELDS, 'code'].map((f) => `${p}.${f}`)),
  ...['headers', 'req.headers', 'res.headers', 'request.headers', 'reply.headers'].flatMap((p) => SECRET_HEADERS.map((h) => `${p}["${h}"]`)),
];

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]*@/gi;
const QUERY_PARAM = /([?&;])([^=&;\s"'#?<>]+)=([^&;\s"'#<>]*)/g;
/** Xtream stream paths: /live/{username}/{password}/{stream}, also movie, series, timeshift. */
const PLAYER_PATH = /\/(live|movie|series|timeshift)\/([^/\s?#"'<>]+)\/([^/\s?#"'<>]+)(?=\/)/g;
/** Short links (/s/{code}): the code opens a playlist that holds the line's password. */
const SHORT_LINK = /(^|[\s:"'(]|\/\/[^/\s"']+)\/s\/([A-Za-z0-9_-]+)/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
/** Telegram bot tokens (`<bot id>:<secret>`), alone or in the Bot API's URLs (`/bot<token>/sendMessage`): the bot id stays. */
const BOT_TOKEN = /(?<!\d)(\d{3,15}):[A-Za-z0-9_-]{30,}/g;
/** Prefixed secrets the panel makes: API keys, webhook secrets, customer sessions. */
const PREFIXED = /\b(rk_live_|whsec_|cs_)[A-Za-z0-9_-]{8,}/g;

/**
 * A text (a URL, a message, an error's stack) without the secrets it may hold: URL user:password,
 * secret query parameters, the password of player stream paths, short-link codes, bearer tokens,
 * the panel's prefixed keys and Telegram bot tokens. The shape stays: `/player_api.php?username=ana&password=[REDACTED]`.
 */
export function scrub(text: string): string {
  if (!/[/=@_]|\d:|Bearer|Basic/.test(text)) return text;
  return text
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(QUERY_PARAM, (all, sep: string, name: string) => (SECRET_PARAM.test(safeDecode(name)) ? `${sep}${name}=${REDACTED}` : all))
    .replace(PLAYER_PATH, `/$1/$2/${REDACTED}`)
    .replace(SHORT_LINK, `$1/s/${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(PREFIXED, `$1${REDACTED}`)
    .replace(BOT_TOKEN, `$1:${REDACTED}`);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Keys of an error object never logged: raw request bytes (client errors), HTTP clients' request and answer objects. */
const DROPPED_ERROR_KEYS = new Set(['rawPacket', 'raw', 'config', 'request', 'response', 'headers', 'options', 'body']);

function scrubDeep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object' || depth > 4) return value;
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (DROPPED_ERROR_KEYS.has(k)) continue;
    out[k] = scrubDeep(v, depth + 1);
  }
  return out;
}

/** pino's error serializer, then scrubbed: outbound calls' errors may carry URLs with tokens. */
export function serializeError(err: unknown): unknown {
  const base = pino.stdSerializers.err(err as Error);
  if (base === err && (err === null || typeof err !== 'object')) return typeof err === 'string' ? scrub(err) : err;
  return scrubDeep({ ...base }, 0);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request line (method, url, host, address), the URL scrubbed: player URLs carry the line's password. */
export function serializeRequest(req: LoggedRequest) {
  return { method: req.method, url: req.url === undefined ? undefined : scrub(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

export function logOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: serializeRequest, res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }), err: serializeError, error: serializeError },
    hooks: {
      // messages are free text: `Route GET:/get.php?username=..&password=.. not found` must not carry the password
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) if (typeof args[i] === 'string') args[i] = scrub(args[i] as string);
        return method.apply(this, args as Parameters<typeof method>);
      },
    },
  };
}

/** The server's logger, to stdout unless a destination is given (tests pass a stream). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return destination ? pino(logOptions(level), destination) : pino(logOptions(level));
}

let shared: Logger | undefined;

/** The process's logger (LOG_LEVEL): what runs outside a request (workers, pools, the cluster's primary) logs here. */
export function processLogger(): Logger {
  shared ??= createLogger(process.env.LOG_LEVEL || 'info');
  return shared;
}

/** Use this logger as the process's (main.ts: the app's). */
export function setProcessLogger(logger: Logger): void {
  shared = logger;
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id (`reqId` of every line a request logs, and the X-Request-Id answer header): behind
 * our own proxies (TRUST_PROXY) the X-Request-Id they send when it is a plain token, so the proxy's
 * access log and ours share it; otherwise a random UUID.
 */
export function requestIdGenerator(trustProxy: boolean): (req: IncomingMessage) => string {
  if (!trustProxy) return () => randomUUID();
  return (req) => {
    const incoming = req.headers['x-request-id'];
    return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  };
}
