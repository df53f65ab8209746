import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { nowSec } from '../../lib/clock.ts';
import { writeLog } from '../logs/service.ts';
import type { Tx } from '../../db/tx.ts';
import * as repo from './repo.ts';
import { newToken } from './tokens.ts';

export interface SessionStart {
  reseller: { id: number; username: string; type: 'admin' | 'master' | 'reseller' };
  rememberMe: boolean;
  ip: string;
  userAgent?: string;
  /** how the second factor was given ('totp' | 'recovery'), kept in the sign-in log row */
  secondFactor?: string;
}

/** Issues a session token for a reseller who proved who they are: the one way every sign-in ends. */
export async function startSession({ config, database }: Deps, start: SessionStart) {
  const { reseller } = start;
  const now = nowSec();
  const { token, tokenHash } = newToken();
  const lifetime = start.rememberMe ? config.rememberMeDays * 86400 : config.sessionMaxHours * 3600;
  const idle = start.rememberMe ? lifetime : config.sessionIdleMinutes * 60;
  const user = await withTx(database, async (trx) => {
    await repo.insertSession(trx, {
      token_hash: tokenHash,
      reseller_id: reseller.id,
      created_at: now,
      last_seen_at: now,
      expires_at: now + lifetime,
      idle_seconds: idle,
      remember_me: start.rememberMe ? 1 : 0,
      ip: start.ip,
      user_agent: start.userAgent?.slice(0, 300) ?? null,
    });
    await repo.markSignedIn(trx, reseller.id, now);
    await writeLog(trx, {
      type_log: 'auth',
      action: 'sign_in',
      actor_id: reseller.id,
      reseller_id: reseller.id,
      target_user: reseller.username,
      ip: start.ip,
      value: start.secondFactor ?? null,
    });
    return repo.signedInUser(trx, reseller.id);
  });
  return { token, user: { ...user, type: reseller.type } };
}

/**
 * Ends every way into the account (sessions and half-done second steps), inside the caller's
 * transaction: a password change, a block, a removal or a 2FA reset.
 */
export const revokeAllSessions = (db: Tx, resellerId: number) => repo.revokeAllSessions(db, resellerId);
/** Ends every session of the account but the caller's own (turning 2FA on). */
export const revokeOtherSessions = (db: Tx, resellerId: number, keepSessionId: number) => repo.revokeAllSessions(db, resellerId, keepSessionId);
