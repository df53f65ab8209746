import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { withTx } from '../../db/tx.ts';
import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { clientNetwork } from '../auth/service.ts';
import { playlistBase } from '../domains/service.ts';
import { findVisibleLine } from '../lines/service.ts';
import { writeLog } from '../logs/service.ts';
import * as repo from './repo.ts';

export const LINK_TYPES = ['mpgets', 'm3u8', 'hls', 'ssiptv'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

/** 12 random bytes = 96 bits, 16 base64url characters. */
const CODE_BYTES = 12;
export const CODE_PATTERN = /^[A-Za-z0-9_-]{16}$/;
/** Failed look-ups allowed per client IP per window before every look-up from it is a 429. */
export const MAX_MISSES = 20;
export const MISS_WINDOW_SECONDS = 600;

/** Where links go when no domain is configured: PUBLIC_URL, else the address the request came to. */
export const panelOrigin = (config: Config, requestOrigin: string) => (config.publicUrl ?? requestOrigin).replace(/\/+$/, '');

/**
 * The four Xtream-style playlist links of a line, on its owner's domain, else the main_domain
 * setting, else `fallback` (the panel's own address: PUBLIC_URL or the request's origin).
 */
export async function originalLinks(db: Tx, line: { member_id: number; username: string; password: string }, fallback: string): Promise<Record<LinkType, string>> {
  const domain = await playlistBase(db, line.member_id, fallback);
  const q = `username=${encodeURIComponent(line.username)}&password=${encodeURIComponent(line.password)}`;
  return {
    mpgets: `${domain}/get.php?${q}&type=m3u_plus&output=mpegts`,
    m3u8: `${domain}/get.php?${q}&type=m3u_plus&output=m3u8`,
    hls: `${domain}/get.php?${q}&type=m3u_plus&output=hls`,
    ssiptv: `${domain}/ssiptv/${encodeURIComponent(line.username)}/${encodeURIComponent(line.password)}/playlist.m3u`,
  };
}

export async function linksOf({ config, database }: Deps, actor: AuthUser, lineId: number, requestOrigin: string) {
  const line = await findVisibleLine(database.db, actor, lineId);
  if (!line) throw appError('NOT_FOUND', { params: { what: 'User' } });
  return originalLinks(database.db, line, panelOrigin(config, requestOrigin));
}

/**
 * A new short code for one of the line's own links (never a URL from the browser: no open
 * redirect). Only the code, line and type are stored: the target is built when it is resolved.
 */
export async function shorten(deps: Deps, actor: AuthUser, lineId: number, type: LinkType, origin: string) {
  return withTx(deps.database, async (trx) => {
    const line = await findVisibleLine(trx, actor, lineId);
    if (!line) throw appError('NOT_FOUND', { params: { what: 'User' } });
    const code = randomBytes(CODE_BYTES).toString('base64url');
    await repo.insertShortLink(trx, { code, line_id: line.id, type, created_by: actor.id, created_at: nowSec() });
    await writeLog(trx, { type_log: 'user', action: 'user_shorturl', actor_id: actor.id, reseller_id: line.member_id, target_user: line.username, value: type });
    const base = panelOrigin(deps.config, origin);
    return { url: `${base}/s/${code}`, original: (await originalLinks(trx, line, base))[type] };
  });
}

export type Resolution =
  | { kind: 'redirect'; url: string }
  | { kind: 'not_found' }
  | { kind: 'blocked' }
  | { kind: 'expired' }
  | { kind: 'rate_limited'; retryAfter: number };

/**
 * Public look-up of `/s/{code}` from `ip`: the target comes from the line's current data.
 * Every look-up is counted for the IP before it runs and a hit gives its count back, so only
 * misses add up; past MAX_MISSES in the window the IP gets 429 even for good codes.
 */
export async function resolve({ config, database }: Deps, code: string, ip: string, requestOrigin: string): Promise<Resolution> {
  const db = database.db;
  const now = nowSec();
  const { misses, window_start } = await repo.reserveLookup(db, clientNetwork(ip).slice(0, 64), now, MISS_WINDOW_SECONDS);
  if (misses > MAX_MISSES) return { kind: 'rate_limited', retryAfter: Math.max(1, window_start + MISS_WINDOW_SECONDS - now) };
  const link = CODE_PATTERN.test(code) ? await repo.findLinkWithLine(db, code) : undefined;
  if (!link) {
    await repo.purgeExpiredMisses(db, now - MISS_WINDOW_SECONDS);
    return { kind: 'not_found' };
  }
  await repo.releaseLookup(db, clientNetwork(ip).slice(0, 64));
  await repo.countHit(db, link.id);
  if (link.enabled !== 1) return { kind: 'blocked' };
  if (link.exp_date <= now) return { kind: 'expired' };
  return { kind: 'redirect', url: (await originalLinks(db, link, panelOrigin(config, requestOrigin)))[link.type as LinkType] };
}
