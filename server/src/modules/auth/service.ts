import { withTx } from '../../db/tx.ts';
import { AppError } from '../../http/errors.ts';
import type { Deps } from '../../deps.ts';
import { writeLog } from '../logs/repo.ts';
import { knownDeviceFor, rememberDevice } from './devices.ts';
import * as repo from './repo.ts';
import { checkAndCount, signInKeys, succeeded } from './throttle.ts';
import { dummyPasswordHash, hashToken, newToken, verifyPassword } from './tokens.ts';

export interface AuthUser {
  id: number;
  username: string;
  type: 'admin' | 'master' | 'reseller';
  credits: number;
  sessionId: number;
}

interface SignInInput {
  username: string;
  password: string;
  remember_me?: boolean;
  /** from an earlier successful sign-in on this browser (see devices.ts) */
  device_token?: string;
  ip: string;
  userAgent?: string;
}

const invalid = () => new AppError(401, 'INVALID_CREDENTIALS', 'Invalid username or password');

export async function signIn(deps: Deps, input: SignInInput) {
  const { config, database } = deps;
  const db = database.db;
  const knownDeviceId = await knownDeviceFor(db, input.device_token, input.username);
  const keys = signInKeys(config, { username: input.username, ip: input.ip, knownDeviceId });
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
    throw invalid();
  }

  await succeeded(deps, keys);
  const now = repo.nowSec();
  const { token, tokenHash } = newToken();
  const lifetime = input.remember_me ? config.rememberMeDays * 86400 : config.sessionMaxHours * 3600;
  const idle = input.remember_me ? lifetime : config.sessionIdleMinutes * 60;
  const user = await withTx(database, async (trx) => {
    await trx
      .insertInto('sessions')
      .values({
        token_hash: tokenHash,
        reseller_id: found.id,
        created_at: now,
        last_seen_at: now,
        expires_at: now + lifetime,
        idle_seconds: idle,
        remember_me: input.remember_me ? 1 : 0,
        ip: input.ip,
        user_agent: input.userAgent?.slice(0, 300) ?? null,
      })
      .execute();
    await trx.updateTable('resellers').set({ last_login: now }).where('id', '=', found.id).execute();
    await writeLog(trx, { type_log: 'auth', action: 'sign_in', actor_id: found.id, reseller_id: found.id, target_user: found.username, ip: input.ip });
    return trx.selectFrom('resellers').select(['id', 'username', 'credits']).where('id', '=', found.id).executeTakeFirstOrThrow();
  });
  return { token, user: { ...user, type: found.type }, device_token: await rememberDevice(deps, found.id, input.device_token) };
}

const SEEN_RESOLUTION = 60; // seconds: don't write last_seen_at on every request

/** Resolves a bearer token to its signed-in reseller, or throws 401. */
export async function authenticate({ database }: Deps, token: string | undefined): Promise<AuthUser> {
  const unauthorized = new AppError(401, 'UNAUTHORIZED', 'Sign in to continue');
  if (!token || token.length > 200) throw unauthorized;
  const row = await repo.findSession(database.db, hashToken(token));
  const now = repo.nowSec();
  if (
    !row ||
    row.revoked_at !== null ||
    row.expires_at <= now ||
    row.last_seen_at + row.idle_seconds <= now ||
    row.status !== 1 ||
    row.deleted_at !== null
  ) {
    throw unauthorized;
  }
  if (now - row.last_seen_at >= SEEN_RESOLUTION) await repo.touchSession(database.db, row.session_id, now);
  return { id: row.reseller_id, username: row.username, type: row.type, credits: row.credits, sessionId: row.session_id };
}

export async function signOut({ database }: Deps, user: AuthUser): Promise<void> {
  await repo.revokeSession(database.db, user.sessionId);
  await writeLog(database.db, { type_log: 'auth', action: 'sign_out', actor_id: user.id, reseller_id: user.id, target_user: user.username });
}
