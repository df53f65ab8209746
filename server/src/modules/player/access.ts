import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { PerKeyLimit } from '../../lib/per-key-limit.ts';
import { type Refusal, checkAndCount, clientNetwork, lineKeys, refuseIfBlocked } from '../auth/service.ts';
import * as repo from './repo.ts';

// Who may play: a line's credentials (players send them in every URL) and what its state allows.
// Shared by the player API, the playlists and the edge gateway.

export type { PlayerLine } from './repo.ts';

/** The status players show (Xtream's user_info.status). */
export type LineStatus = 'Active' | 'Banned' | 'Disabled' | 'Expired';

/**
 * Deleted lines and lines moved to P2P (system 2 or 3) are "Disabled": the player API and edges
 * serve HTTP/IPTV lines only. Blocked is "Banned", expired "Expired".
 */
export function lineStatus(line: Pick<repo.PlayerLine, 'deleted_at' | 'system' | 'enabled' | 'exp_date'>, now: number): LineStatus {
  if (line.deleted_at !== null || line.system !== 1) return 'Disabled';
  if (line.enabled !== 1) return 'Banned';
  if (line.exp_date <= now) return 'Expired';
  return 'Active';
}

/** The line's bouquet ids (a JSON array of id strings). */
export function bouquetIds(line: Pick<repo.PlayerLine, 'bouquet'>): number[] {
  try {
    const ids = JSON.parse(line.bouquet) as unknown;
    return Array.isArray(ids) ? ids.map(Number).filter((n) => Number.isInteger(n) && n > 0 && n <= 2147483647) : [];
  } catch {
    return [];
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const samePassword = (stored: string, given: string) => timingSafeEqual(digest(stored), digest(given));

/** Whether `given` is the line's password (in constant time). */
export const rightPassword = (line: Pick<repo.PlayerLine, 'password'>, given: string) => samePassword(line.password, given);

export interface Credentials {
  username: string;
  password: string;
  /** the client's address: the request's, or the X-Real-IP an edge reports */
  ip: string;
}

/**
 * Guesses from one address are decided one after another: checked all at once, a burst of parallel
 * guesses would each read "not blocked" before any failure was counted, and the right password
 * would be let through far past the limit. A right answer writes nothing, so a player's parallel
 * requests only queue for a read or two each.
 */
const perAddress = new PerKeyLimit(1);

/** Runs `fn` in the client's address's turn, after that address's earlier password checks. */
export const inAddressTurn = <T>(ip: string, fn: () => Promise<T>) => perAddress.run(clientNetwork(ip), fn);

/**
 * The line these credentials open, or null. Wrong credentials are counted by the sign-in rate
 * limiter (modules/auth/throttle.ts, keys of `lineKeys`); while a key is blocked every attempt is
 * refused with 429 RATE_LIMITED (logged), right password or not, without looking at the password.
 */
export function authenticateLine(deps: Deps, c: Credentials): Promise<repo.PlayerLine | null> {
  const keys = lineKeys(deps.config, c);
  const refusal: Refusal = { action: 'line_auth_rate_limited', target_user: c.username.slice(0, 100), ip: c.ip };
  return perAddress.run(clientNetwork(c.ip), async () => {
    await refuseIfBlocked(deps, keys, refusal);
    const line = await repo.findLineByUsername(deps.database.db, c.username);
    // compared even for an unknown username, so both answers take the same time
    const right = samePassword(line?.password ?? '\u0000', c.password);
    if (line && right) return line;
    await checkAndCount(deps, keys, refusal);
    return null;
  });
}
