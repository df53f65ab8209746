import type { Config } from '../../config.ts';
import type { Tx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import { nowSec } from '../../lib/clock.ts';
import { writeLog } from '../logs/service.ts';
import * as repo from './throttle-repo.ts';

/**
 * Throttling of guessable secrets (passwords, second-factor codes). Each attempt is counted on
 * every key BEFORE the secret is checked, atomically in the database, so parallel requests and
 * other server processes cannot pass the limit. Past its limit a key waits a delay that doubles
 * with each further attempt (LOGIN_DELAY_SECONDS .. LOGIN_MAX_DELAY_SECONDS); a key untouched for
 * LOGIN_WINDOW_SECONDS starts over. A failure needs no call: it was counted already.
 */
export interface ThrottleKey {
  /** e.g. `pair:alice|203.0.113.7`; up to 200 characters */
  key: string;
  /** attempts before delays start */
  limit: number;
  /** on success: 'clear' forgets the key, 'takeBack' only uncounts this attempt */
  onSuccess: 'clear' | 'takeBack';
}

/** What the action log records when an attempt is refused. */
export interface Refusal {
  action: string;
  target_user: string;
  ip: string;
  reseller_id?: number | null;
}

const PRUNE_CHANCE = 0.02;

function rule(config: Config, limit: number): repo.ThrottleRule {
  return {
    limit,
    delaySeconds: config.loginDelaySeconds,
    maxDelaySeconds: config.loginMaxDelaySeconds,
    windowSeconds: config.loginWindowSeconds,
  };
}

/** Logs the refusal and builds its 429 (Retry-After until `until`). */
async function refusal(db: Tx, refusal: Refusal, until: number, now: number) {
  await writeLog(db, { type_log: 'auth', action: refusal.action, reseller_id: refusal.reseller_id ?? null, target_user: refusal.target_user, ip: refusal.ip });
  return appError('RATE_LIMITED', { retryAfter: Math.max(1, until - now) });
}

/** Counts one attempt on every key, or throws 429 RATE_LIMITED (logged, with Retry-After) counting none. */
export async function checkAndCount({ config, database }: Deps, keys: ThrottleKey[], refused: Refusal): Promise<void> {
  const db = database.db;
  const now = nowSec();
  const blocked = await repo.findBlocked(db, keys.map((k) => k.key), now);
  if (blocked.length > 0) throw await refusal(db, refused, Math.max(...blocked.map((b) => b.blocked_until)), now);

  const counted: ThrottleKey[] = [];
  for (const k of keys) {
    const result = await repo.countAttempt(db, k.key, rule(config, k.limit), now);
    if (result.refused) {
      // Another request blocked this key since the look-up above: this attempt counts nowhere.
      for (const c of counted) await repo.takeBackAttempt(db, c.key, c.limit);
      throw await refusal(db, refused, result.blockedUntil, now);
    }
    counted.push(k);
  }
  if (Math.random() < PRUNE_CHANCE) await repo.pruneThrottle(db, now - config.loginWindowSeconds, now);
}

/**
 * Refuses (429, logged) while any key is blocked, counting nothing: one read. For secrets checked
 * in a single indexed look-up (line passwords, asked on every player request), where counting
 * every right answer would cost writes and the window for parallel guesses is that look-up;
 * failures are then counted with `checkAndCount`.
 */
export async function refuseIfBlocked({ database }: Deps, keys: ThrottleKey[], refused: Refusal): Promise<void> {
  const now = nowSec();
  const blocked = await repo.findBlocked(database.db, keys.map((k) => k.key), now);
  if (blocked.length > 0) throw await refusal(database.db, refused, Math.max(...blocked.map((b) => b.blocked_until)), now);
}

/** After the secret was right: forgets or uncounts this attempt on every key. */
export async function succeeded({ database }: Deps, keys: ThrottleKey[]): Promise<void> {
  for (const k of keys) {
    if (k.onSuccess === 'clear') await repo.clearThrottle(database.db, k.key);
    else await repo.takeBackAttempt(database.db, k.key, k.limit);
  }
}

/**
 * The keys of a password attempt. From a device that signed in to this account before, only that
 * device's own counter; otherwise the username+IP pair, the IP (all usernames, high enough for an
 * office behind one address) and the account across all IPs (OWASP's per-account cap).
 */
/** Forgets a key's attempts inside the caller's transaction (an admin's 2FA reset). */
export const clearKey = (db: Tx, key: string) => repo.clearThrottle(db, key);

export function signInKeys(config: Config, input: { username: string; ip: string; knownDeviceId: number | null }): ThrottleKey[] {
  const user = input.username.toLowerCase();
  const ip = clientNetwork(input.ip);
  if (input.knownDeviceId !== null) {
    return [{ key: `device:${input.knownDeviceId}`, limit: config.loginMaxFailures, onSuccess: 'clear' }];
  }
  return [
    { key: `pair:${user}|${ip}`, limit: config.loginMaxFailures, onSuccess: 'clear' },
    { key: `ip:${ip}`, limit: config.loginIpMaxFailures, onSuccess: 'takeBack' },
    { key: `account:${user}`, limit: config.loginAccountMaxFailures, onSuccess: 'takeBack' },
  ];
}

/**
 * The keys of a line's credentials (player API, playlists, edges): username+IP and IP, named apart
 * from the panel's sign-in keys, so a player stuck on an old password never locks its reseller out
 * of the panel. No per-line key: anyone could lock a customer's line out from elsewhere.
 */
export function lineKeys(config: Config, input: { username: string; ip: string }): ThrottleKey[] {
  const ip = clientNetwork(input.ip);
  return [
    { key: `line-pair:${input.username.toLowerCase()}|${ip}`, limit: config.loginMaxFailures, onSuccess: 'clear' },
    { key: `line-ip:${ip}`, limit: config.loginIpMaxFailures, onSuccess: 'takeBack' },
  ];
}

/**
 * The unit an address is counted by: an IPv4 address, or the /64 network of an IPv6 one (anyone
 * with one IPv6 address usually holds its whole /64, so counting single addresses would not count).
 */
export function clientNetwork(ip: string): string {
  const address = ip.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':') || address.includes('.')) return address;
  const [head, tail] = address.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((g) => (Number.parseInt(g, 16) || 0).toString(16)).join(':')}::/64`;
}
