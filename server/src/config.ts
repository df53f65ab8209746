import { panelTimeZone } from './lib/calendar.ts';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: relative paths (the SQLite file, backups) are resolved from here, whatever the cwd. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Every environment variable the server reads, parsed and validated in one place.
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  adminUsername: string;
  adminPassword: string | undefined;
  /** PANEL_DATA_DIR: the default SQLite file's folder, and where a generated first-admin password is written */
  dataDir: string;
  logLevel: string;
  /** one log line per request (LOG_REQUESTS=1); otherwise only errors and slow requests */
  logRequests: boolean;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  rememberMeDays: number;
  /** sign-in throttle, see modules/auth/throttle.ts */
  loginMaxFailures: number;
  loginIpMaxFailures: number;
  loginAccountMaxFailures: number;
  loginDelaySeconds: number;
  loginMaxDelaySeconds: number;
  loginWindowSeconds: number;
  loginDeviceDays: number;
  webDist: string | undefined;
  publicUrl: string | undefined;
  dashboardCacheSeconds: number;
  /** Memory for the player API's built lists, per process (modules/player/list-cache.ts); 0 builds every answer. */
  playerCacheMb: number;
  /** Fastify's trustProxy: false or our reverse proxies' addresses. */
  trustProxy: false | string[];
  /** REQUIRE_ADMIN_2FA=1: admins without two-factor sign-in may only enrol */
  requireAdmin2fa: boolean;
  /** encrypts the TOTP secrets at rest; generated and kept in the database when unset */
  twoFactorKey: string | undefined;
  /** the P2P server (docs/integrations.md, "P2P server"); unset: changes wait in the outbox */
  p2pApiUrl: string | undefined;
  p2pApiKey: string | undefined;
  /** first retry delay of a failed delivery; doubles per attempt up to p2pRetryMaxMs */
  p2pRetryBaseMs: number;
  /** a webhook delivery's first retry waits this long, doubling up to 5 minutes */
  webhookRetryBaseMs: number;
  /** how long a process holds a webhook delivery it is sending; a dead process's runs out after this */
  webhookLeaseSeconds: number;
  p2pRetryMaxMs: number;
  /** the old P2P panel (docs/integrations.md, "Old P2P panel") */
  oldP2pUrl: string | undefined;
  /** outside services (docs/integrations.md); unset: the feature answers NOT_CONFIGURED */
  tmdbApiUrl: string;
  tmdbApiKey: string | undefined;
  /** where the browser loads posters from (allowed by the CSP's img-src) */
  tmdbImageUrl: string;
  lazyPlayerUrl: string | undefined;
  /** how long the panel waits for an outside service */
  integrationTimeoutMs: number;
  /** a connection reported by an edge counts as online this long after its last request */
  onlineWindowSeconds: number;
  /** a connection not seen this long no longer holds one of the line's screens (at most the online window) */
  screenHoldSeconds: number;
  /** a disconnected connection is refused this long */
  disconnectBanSeconds: number;
  /** how long a signed segment URL an edge hands out works (the edge's kept answer and a segment's fetch) */
  edgeLinkSeconds: number;
  /** private networks outbound fetches may reach anyway (lib/ssrf): tests' local stand-ins */
  outboundAllowNetworks: string[];
  /** e-mail reminders: the deployment's SMTP server (smtp:// or smtps://user:pass@host:port) and sender address; unset: NOT_CONFIGURED */
  smtpUrl: string | undefined;
  smtpFrom: string | undefined;
  /** GET /metrics answers only with `Authorization: Bearer <token>`; unset: /metrics is off (404) */
  metricsToken: string | undefined;
  /** scheduled backups every this many hours (0: off), into backupDir, keeping the newest backupKeep */
  backupEveryHours: number;
  backupDir: string;
  backupKeep: number;
  /** how often this process checks whether a scheduled backup is due */
  backupTickSeconds: number;
  /** how often the reminder scheduler looks for due reminders */
  remindersTickSeconds: number;
  /** a failed reminder's first retry waits this long, doubling up to 30 minutes */
  remindersRetryBaseMs: number;
  /** the time zone of reminder stages (calendar days) and sending hours */
  timeZone: string;
  /** Mercado Pago's API (tests point it at a stand-in) */
  mercadopagoApiUrl: string;
  /** a pending PIX charge older than this is asked about at Mercado Pago (a webhook may have been lost) */
  paymentsCheckAfterSeconds: number;
  /** how often the payments worker looks at pending charges and payments waiting for credits */
  paymentsTickSeconds: number;
  /** Telegram's Bot API (tests point it at a stand-in) */
  telegramApiUrl: string;
  /** WORKERS: server processes behind the port (node:cluster); more than 1 on PostgreSQL only */
  workers: number;
  /** WORKER_PID_HEADER=1: every answer says which process served it (X-Worker-Pid), to check the spread */
  workerPidHeader: boolean;
  /** SQLITE_READERS: threads running SQLite's reads outside transactions (db/sqlite-readers.ts); 0: all on the event loop */
  sqliteReaders: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

/** An http(s) URL setting (an outside system's base URL) without its trailing slash, or undefined when unset. */
function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function smtpUrl(raw: string | undefined): string | undefined {
  if (!raw?.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('SMTP_URL must be smtp://user:pass@host:port or smtps://...');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL must be smtp://user:pass@host:port or smtps://...');
  return raw.trim();
}


function twoFactorKey(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (raw.length < 32) throw new Error('TWO_FACTOR_KEY must be at least 32 characters (e.g. openssl rand -hex 32)');
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = resolveDatabaseUrl(env);
  return {
    port: int(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    dataDir: dataDirectory(env),
    logLevel: env.LOG_LEVEL || 'info',
    logRequests: env.LOG_REQUESTS === '1',
    sessionIdleMinutes: int(env, 'SESSION_IDLE_MINUTES', 30, 1),
    sessionMaxHours: int(env, 'SESSION_MAX_HOURS', 12, 1),
    rememberMeDays: int(env, 'REMEMBER_ME_DAYS', 30, 1),
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, 1),
    loginIpMaxFailures: int(env, 'LOGIN_IP_MAX_FAILURES', 50, 1),
    loginAccountMaxFailures: int(env, 'LOGIN_ACCOUNT_MAX_FAILURES', 100, 1),
    loginDelaySeconds: int(env, 'LOGIN_DELAY_SECONDS', 60, 1),
    loginMaxDelaySeconds: int(env, 'LOGIN_MAX_DELAY_SECONDS', 900, 1),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 3600, 1),
    loginDeviceDays: int(env, 'LOGIN_DEVICE_DAYS', 180, 1),
    webDist: env.WEB_DIST || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    dashboardCacheSeconds: int(env, 'DASHBOARD_CACHE_SECONDS', 30),
    playerCacheMb: int(env, 'PLAYER_CACHE_MB', 64, 0),
    trustProxy: trustProxy(env.TRUST_PROXY),
    requireAdmin2fa: env.REQUIRE_ADMIN_2FA === '1',
    twoFactorKey: twoFactorKey(env.TWO_FACTOR_KEY),
    p2pApiUrl: httpUrl(env, 'P2P_API_URL'),
    p2pApiKey: env.P2P_API_KEY || undefined,
    p2pRetryBaseMs: int(env, 'P2P_RETRY_BASE_MS', 1000, 1),
    webhookRetryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 1000, 1),
    webhookLeaseSeconds: int(env, 'WEBHOOK_LEASE_SECONDS', 60, 1),
    p2pRetryMaxMs: int(env, 'P2P_RETRY_MAX_SECONDS', 300, 1) * 1000,
    oldP2pUrl: httpUrl(env, 'OLD_P2P_URL'),
    tmdbApiUrl: httpUrl(env, 'TMDB_API_URL') ?? 'https://api.themoviedb.org/3',
    tmdbApiKey: env.TMDB_API_KEY || undefined,
    tmdbImageUrl: httpUrl(env, 'TMDB_IMAGE_URL') ?? 'https://image.tmdb.org/t/p/w185',
    lazyPlayerUrl: httpUrl(env, 'LAZY_PLAYER_URL'),
    integrationTimeoutMs: int(env, 'INTEGRATION_TIMEOUT_MS', 10_000, 100),
    onlineWindowSeconds: int(env, 'ONLINE_WINDOW_SECONDS', 60, 1),
    screenHoldSeconds: Math.min(int(env, 'SCREEN_HOLD_SECONDS', 40, 1), int(env, 'ONLINE_WINDOW_SECONDS', 60, 1)),
    disconnectBanSeconds: int(env, 'DISCONNECT_BAN_SECONDS', 60, 0),
    edgeLinkSeconds: int(env, 'EDGE_LINK_SECONDS', 30, 1),
    outboundAllowNetworks: allowNetworks(env.OUTBOUND_ALLOW_NETWORKS),
    smtpUrl: smtpUrl(env.SMTP_URL),
    smtpFrom: env.SMTP_FROM?.trim() || undefined,
    remindersTickSeconds: int(env, 'REMINDERS_TICK_SECONDS', 60, 1),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    backupEveryHours: int(env, 'BACKUP_EVERY_HOURS', 0, 0),
    backupDir: path.resolve(REPO_ROOT, env.BACKUP_DIR || 'backups'),
    backupKeep: int(env, 'BACKUP_KEEP', 14, 1),
    backupTickSeconds: int(env, 'BACKUP_TICK_SECONDS', 60, 1),
    remindersRetryBaseMs: int(env, 'REMINDERS_RETRY_BASE_MS', 60_000, 1),
    timeZone: panelTimeZone(env),
    mercadopagoApiUrl: httpUrl(env, 'MERCADOPAGO_API_URL') ?? 'https://api.mercadopago.com',
    paymentsCheckAfterSeconds: int(env, 'PAYMENTS_CHECK_AFTER_SECONDS', 300, 1),
    paymentsTickSeconds: int(env, 'PAYMENTS_TICK_SECONDS', 30, 1),
    telegramApiUrl: httpUrl(env, 'TELEGRAM_API_URL') ?? 'https://api.telegram.org',
    workers: workers(env, databaseUrl),
    workerPidHeader: env.WORKER_PID_HEADER === '1',
    sqliteReaders: int(env, 'SQLITE_READERS', 2),
  };
}

/** METRICS_TOKEN: whoever has it reads the business figures, so a guessable one is refused at start-up. */
function metricsToken(value: string | undefined): string | undefined {
  const token = value?.trim();
  if (!token) return undefined;
  if (token.length < 16) throw new Error('METRICS_TOKEN must be at least 16 characters (e.g. `openssl rand -hex 24`)');
  return token;
}

/**
 * WORKERS: how many server processes share the port. SQLite has one writer at a time and its
 * prepared statements, WAL and busy waits live in each process: several processes would only
 * queue on its write lock (and wait up to busy_timeout), so more than one is refused there.
 */
function workers(env: NodeJS.ProcessEnv, databaseUrl: string): number {
  const n = int(env, 'WORKERS', 1, 1);
  if (n > 1 && databaseUrl.startsWith('sqlite:')) {
    throw new Error(`WORKERS=${n} needs PostgreSQL: SQLite has a single writer, so run one process (WORKERS=1 or unset) or set DATABASE_URL=postgres://...`);
  }
  return n;
}

/**
 * DATABASE_URL, with a relative `sqlite:` path made absolute from the repo root, so `npm start`,
 * `npm run seed:demo` (run inside server/) and `npm run backup` all open the same file. The
 * default file is `panel.db` in PANEL_DATA_DIR (default: `data/` at the repo root).
 */
export function resolveDatabaseUrl(env: NodeJS.ProcessEnv): string {
  const url = env.DATABASE_URL || `sqlite:${path.join(dataDirectory(env), 'panel.db')}`;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(url)) throw new Error('DATABASE_URL must start with sqlite: or postgres://');
  if (!url.startsWith('sqlite:')) return url;
  const file = url.slice('sqlite:'.length);
  if (file === '' || file === ':memory:') return url;
  return `sqlite:${path.resolve(REPO_ROOT, file)}`;
}

/** PANEL_DATA_DIR (default: `data/` at the repo root), absolute. */
export function dataDirectory(env: NodeJS.ProcessEnv): string {
  return path.resolve(REPO_ROOT, env.PANEL_DATA_DIR || 'data');
}

/**
 * OUTBOUND_ALLOW_NETWORKS: addresses or CIDRs (`127.0.0.1/32,::1`) that the SSRF guard lets
 * outbound fetches reach although they are not public. Empty by default; tests set it for their
 * stand-in servers. Never list networks whose services must stay private (metadata, databases).
 */
export function allowNetworks(raw: string | undefined): string[] {
  const list = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || extra !== undefined || (bits !== undefined && !(/^[0-9]{1,3}$/.test(bits) && Number(bits) <= max))) {
      throw new Error(`OUTBOUND_ALLOW_NETWORKS must list addresses or CIDRs (e.g. "127.0.0.1/32,::1"), got "${raw}"`);
    }
  }
  return list;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: the addresses or CIDRs of our own reverse proxies (`127.0.0.1`, `10.0.1.0/24`, or
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal`). The client's IP is the right-most
 * X-Forwarded-For entry not written by one of them. Never "trust everything" (the old `1`):
 * proxies append to the header a client sent, so anyone could pick an IP per request.
 */
export function trustProxy(raw: string | undefined): false | string[] {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value.toLowerCase() === 'off' || value.toLowerCase() === 'false') return false;
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  const valid = (entry: string) => {
    if (PROXY_NAMES.has(entry)) return true;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    return family !== 0 && extra === undefined && (bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
  };
  if (list.length === 0 || !list.every(valid)) {
    throw new Error(`TRUST_PROXY must list the reverse proxies' addresses (e.g. "loopback" or "10.0.0.5,10.0.1.0/24"), got "${raw}"`);
  }
  return list;
}
