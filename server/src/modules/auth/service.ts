import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { writeLog } from '../logs/service.ts';
import { knownDeviceFor, rememberDevice } from './devices.ts';
import * as repo from './repo.ts';
import { challengeIfEnrolled } from '../twofactor/service.ts';
import { startSession } from './sessions.ts';
import { checkAndCount, signInKeys, succeeded } from './throttle.ts';
import { dummyPasswordHash, hashToken, verifyPassword } from './tokens.ts';

interface SignInInput {
  username: string;
  password: string;
  remember_me?: boolean;
  /** from an earlier successful sign-in on this browser (see devices.ts) */
  device_token?: string;
  ip: string;
  userAgent?: string;
}

export async function signIn(deps: Deps, input: SignInInput) {
  const db = deps.database.db;
  const knownDeviceId = await knownDeviceFor(db, input.device_token, input.username);
  const keys = signInKeys(deps.config, { username: input.username, ip: input.ip, knownDeviceId });
  await checkAndCount(deps, keys, { action: 'sign_in_rate_limited', target_user: input.username, ip: input.ip });

  const found = await repo.findResellerByUsername(db, input.username);
  const ok = await verifyPassword(found?.password_hash ?? (await dummyPasswordHash()), input.password);
  const allowed = found && ok && found.status === 1 && found.deleted_at === null;
  if (!allowed) {
    await writeLog(db, {
      type_log: 'auth',
      action: 'sign_in_failed',
      reseller_id: found?.id ?? null,
      target_user: input.username,
      ip: input.ip,
    });
    throw appError('INVALID_CREDENTIALS');
  }

  // The password is right: the rest (second factor, session) is the same for every sign-in.
  await succeeded(deps, keys);
  const reseller = { id: found.id, username: found.username, type: found.type };
  const challenge = await challengeIfEnrolled(deps, reseller, input.remember_me === true);
  if (challenge) return challenge;
  const session = await startSession(deps, { reseller, rememberMe: input.remember_me === true, ip: input.ip, userAgent: input.userAgent });
  return { ...session, device_token: await rememberDevice(deps, found.id, input.device_token) };
}

const SEEN_RESOLUTION = 60; // seconds: don't write last_seen_at on every request

/**
 * Resolves a bearer token to its signed-in reseller, or throws 401 (or rejects, when it answers
 * with a promise). On SQLite with the connection free the answer comes at once, not as a promise:
 * the session check runs on every signed-in request.
 */
export function authenticate(deps: Deps, token: string | undefined): AuthUser | Promise<AuthUser> {
  if (!token || token.length > 200) throw appError('UNAUTHORIZED');
  const row = repo.findSessionByToken(deps.database.db, hashToken(token));
  return row instanceof Promise ? row.then((found) => signedIn(deps, found)) : signedIn(deps, row);
}

/** The signed-in reseller of a session still valid (one-time download links), or throws 401. */
export const authenticateSession = async (deps: Deps, sessionId: number) => signedIn(deps, await repo.findSessionById(deps.database.db, sessionId));

/** The session's reseller when the session is still valid, or throws 401; a promise only when last_seen_at is written. */
function signedIn({ database }: Deps, row: repo.SessionRow | undefined): AuthUser | Promise<AuthUser> {
  const now = nowSec();
  if (
    !row ||
    row.revoked_at !== null ||
    row.expires_at <= now ||
    row.last_seen_at + row.idle_seconds <= now ||
    row.status !== 1 ||
    row.deleted_at !== null
  ) {
    throw appError('UNAUTHORIZED');
  }
  const user: AuthUser = {
    id: row.reseller_id,
    username: row.username,
    type: row.type,
    credits: row.credits,
    sessionId: row.session_id,
    twoFactorEnabled: Boolean(row.two_factor_enabled),
    topLevel: Boolean(row.top_level),
  };
  if (now - row.last_seen_at >= SEEN_RESOLUTION) return repo.touchSession(database.db, row.session_id, now).then(() => user);
  return user;
}

export async function signOut({ database }: Deps, user: AuthUser): Promise<void> {
  await repo.revokeSession(database.db, user.sessionId);
  await writeLog(database.db, { type_log: 'auth', action: 'sign_out', actor_id: user.id, reseller_id: user.id, target_user: user.username });
}
export { checkAndCount, clearKey, clientNetwork, lineKeys, refuseIfBlocked, succeeded, type Refusal, type ThrottleKey } from './throttle.ts';
export { hashPassword, hashToken, newToken, verifyPassword } from './tokens.ts';
export { rememberDevice } from './devices.ts';
export { revokeAllSessions, revokeOtherSessions, startSession } from './sessions.ts';
