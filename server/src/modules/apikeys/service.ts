import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { appError, validation } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { networkMatcher } from '../../lib/ssrf/addresses.ts';
import { hashToken } from '../auth/service.ts';
import { writeLog } from '../logs/service.ts';
import { intSetting } from '../settings/service.ts';
import * as repo from './repo.ts';

// API keys (docs/api.md): a program acting for its owner, inside the owner's rights, on the routes
// that name a scope (http/auth.ts). The key is shown once; only its SHA-256 is kept.

export const SCOPES = ['lines:read', 'lines:write', 'credits:read'] as const;
export type Scope = (typeof SCOPES)[number];
export const KEY_PREFIX = 'rk_live_';
/** live (not revoked) keys an account may hold: each has its own rate, so keys must not multiply it */
export const MAX_LIVE_KEYS = 20;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = (bytes: Buffer) => {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(43, '0');
};

export interface NewKey {
  name: string;
  scopes: Scope[];
  allowed_ips?: string[];
  expires_at?: number | null;
}

/** An address, or a CIDR network whose prefix fits its family. */
function validNetwork(entry: string): boolean {
  if (entry.includes('%')) return false; // a zone id means nothing to another machine
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^[0-9]{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

export async function create(deps: Deps, user: AuthUser, body: NewKey) {
  const allowed = [...new Set((body.allowed_ips ?? []).map((s) => s.trim()).filter(Boolean))];
  const bad = allowed.find((entry) => !validNetwork(entry));
  if (bad) throw validation('allowed_ips', `"${bad.slice(0, 60)}" is not an address or CIDR network`, 'NOT_ADDRESS');
  const now = nowSec();
  if (body.expires_at != null && body.expires_at <= now) throw validation('expires_at', 'must be in the future', 'NOT_FUTURE');
  const key = `${KEY_PREFIX}${base62(randomBytes(32))}`;
  const scopes = SCOPES.filter((s) => body.scopes.includes(s));
  const row = {
    reseller_id: user.id,
    name: body.name.trim(),
    scopes: JSON.stringify(scopes),
    allowed_ips: allowed.length ? JSON.stringify(allowed) : null,
    key_hash: hashToken(key),
    created_at: now,
    expires_at: body.expires_at ?? null,
  };
  const id = await withTx(deps.database, async (trx) => {
    if ((await repo.countLiveKeys(trx, user.id)) >= MAX_LIVE_KEYS) {
      throw appError('API_KEY_LIMIT', { params: { max: MAX_LIVE_KEYS } });
    }
    const made = await repo.insertKey(trx, row);
    await writeLog(trx, { type_log: 'auth', action: 'api_key_create', actor_id: user.id, reseller_id: user.id, target_user: row.name, value: scopes.join(' ') });
    return made;
  });
  return { id, name: row.name, scopes, allowed_ips: allowed, expires_at: row.expires_at, created_at: now, key };
}

const parsed = (r: Awaited<ReturnType<typeof repo.keysOf>>[number]) => ({
  ...r,
  scopes: JSON.parse(r.scopes) as Scope[],
  allowed_ips: r.allowed_ips ? (JSON.parse(r.allowed_ips) as string[]) : [],
});

export async function list(deps: Deps, user: AuthUser) {
  return { data: (await repo.keysOf(deps.database.db, user.id)).map(parsed) };
}

export async function revoke(deps: Deps, user: AuthUser, id: number): Promise<void> {
  await withTx(deps.database, async (trx) => {
    const found = await repo.revokeKey(trx, user.id, id, nowSec());
    if (!found) throw appError('NOT_FOUND', { params: { what: 'API key' } });
    await writeLog(trx, { type_log: 'auth', action: 'api_key_revoke', actor_id: user.id, reseller_id: user.id, target_user: found.name });
  });
}

/** Keys over their limit in this process, until the minute ends (the count itself is in the database). */
const limitedUntil = new Map<number, number>();

/** What a request through a key carries besides its owner. */
export interface KeyUse {
  id: number;
  name: string;
  scopes: Scope[];
}

/**
 * The owner of a valid key, signed in as its session would be, with the key's name and scopes; or
 * 401 (unknown, revoked, expired, owner blocked or deleted), 403 (address outside the key's list),
 * 429 (over the per-minute limit, counted in the database).
 */
export async function authenticateKey(deps: Deps, key: string, ip: string): Promise<AuthUser & { apiKey: KeyUse }> {
  const db = deps.database.db;
  const row = await repo.keyByHash(db, hashToken(key));
  const now = nowSec();
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now) || row.status !== 1 || row.deleted_at !== null) throw appError('UNAUTHORIZED', { params: { credential: 'This API key' } });
  const allowed = row.allowed_ips ? (JSON.parse(row.allowed_ips) as string[]) : [];
  if (allowed.length && !networkMatcher(allowed)(ip)) throw appError('IP_NOT_ALLOWED');
  const minute = Math.floor(now / 60);
  const tooMany = (perMinute?: number) => appError('RATE_LIMITED', { params: { perMinute }, retryAfter: (minute + 1) * 60 - now });
  // over its limit this minute: refused without writing (a bot ignoring 429 costs no commits)
  if ((limitedUntil.get(row.id) ?? 0) > now) throw tooMany();
  const [count, limit] = await Promise.all([repo.countRequest(db, row.id, minute), intSetting(db, 'api_key_requests_per_minute')]);
  if (count > limit) {
    if (limitedUntil.size > 10_000) limitedUntil.clear();
    limitedUntil.set(row.id, (minute + 1) * 60);
    throw tooMany(limit);
  }
  if (row.last_used_at === null || now - row.last_used_at >= 10) await repo.touchKey(db, row.id, now, ip);
  if (count === 1 && Math.random() < 0.05) await repo.pruneUsage(db, minute - 5);
  return {
    id: row.reseller_id,
    username: row.username,
    type: row.type,
    credits: row.credits,
    sessionId: 0,
    twoFactorEnabled: Boolean(row.two_factor_enabled),
    topLevel: Boolean(row.top_level),
    apiKey: { id: row.id, name: row.name, scopes: JSON.parse(row.scopes) as Scope[] },
  };
}
