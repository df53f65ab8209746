import QRCode from 'qrcode';
import { withTx } from '../../db/tx.ts';
import type { Deps } from '../../deps.ts';
import { appError } from '../../http/errors.ts';
import type { AuthUser } from '../../domain/auth-user.ts';
import { nowSec } from '../../lib/clock.ts';
import { rememberDevice } from '../auth/service.ts';
import { revokeAllSessions, revokeOtherSessions, startSession } from '../auth/service.ts';
import { checkAndCount, clearKey, succeeded, type ThrottleKey } from '../auth/service.ts';
import { hashToken, newToken, verifyPassword } from '../auth/service.ts';
import { writeLog } from '../logs/service.ts';
import { findVisibleReseller } from '../resellers/service.ts';
import { hashRecoveryCode, isTotpCode, matchingStep, newRecoveryCodes, newSecret, normaliseCode, otpauthUrl } from './codes.ts';
import * as repo from './repo.ts';
import { openSecret, sealSecret } from './secrets.ts';

const CHALLENGE_SECONDS = 300;
const CHALLENGE_MAX_ATTEMPTS = 5;

const accountKey = (resellerId: number) => `2fa:${resellerId}`;

type Reseller = { id: number; username: string; type: AuthUser['type'] };

/** Does this signed-in admin still have to enrol before using the panel (REQUIRE_ADMIN_2FA=1)? */
export const mustEnrol = ({ config }: Deps, user: Pick<AuthUser, 'type' | 'twoFactorEnabled'>): boolean => enrolmentRequired(config, user) && !user.twoFactorEnabled;

const enrolmentRequired = (config: Deps['config'], user: Pick<AuthUser, 'type'>) => config.requireAdmin2fa && user.type === 'admin';

/** What the profile tells the web app: 2FA on, and whether the admin must enrol first. */
export const profileFlags = ({ config }: Deps, user: Pick<AuthUser, 'type' | 'twoFactorEnabled'>) => ({
  two_factor_enabled: user.twoFactorEnabled,
  two_factor_required: enrolmentRequired(config, user) && !user.twoFactorEnabled,
});

export async function status(deps: Deps, user: AuthUser) {
  const enabled = await repo.isEnabled(deps.database.db, user.id);
  return {
    enabled,
    recovery_codes_left: enabled ? await repo.recoveryCodesLeft(deps.database.db, user.id) : 0,
    required: enrolmentRequired(deps.config, user),
  };
}

/** A new secret waiting for its first code; shown once as a QR code and as text. */
export async function setup(deps: Deps, user: AuthUser) {
  const secret = newSecret();
  const saved = await repo.savePending(deps.database.db, user.id, await sealSecret(deps, user.id, secret), nowSec());
  if (!saved) throw appError('TWO_FACTOR_ALREADY_ENABLED');
  const url = otpauthUrl(secret, user.username);
  const svg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauth_url: url, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Turns 2FA on with a first code from the app; the recovery codes are returned this once only.
 * The account's other sessions end (opened without the second step, they could be a thief's).
 */
export async function enable(deps: Deps, user: AuthUser, code: string) {
  const db = deps.database.db;
  const row = await repo.findTwoFactor(db, user.id);
  if (!row) throw appError('TWO_FACTOR_NOT_PENDING');
  if (row.enabled_at !== null) throw appError('TWO_FACTOR_ALREADY_ENABLED');
  const secret = await openSecret(deps, user.id, row.secret_enc);
  const step = secret && isTotpCode(normaliseCode(code)) ? matchingStep(secret, normaliseCode(code)) : null;
  if (step === null) throw appError('INVALID_2FA_CODE', { field: 'code' });
  const codes = newRecoveryCodes();
  await withTx(deps.database, async (trx) => {
    if (!(await repo.enable(trx, user.id, step, nowSec()))) throw appError('TWO_FACTOR_ALREADY_ENABLED');
    await repo.replaceRecoveryCodes(trx, user.id, codes.map(hashRecoveryCode));
    await revokeOtherSessions(trx, user.id, user.sessionId);
    await writeLog(trx, { type_log: 'auth', action: 'two_factor_enable', actor_id: user.id, reseller_id: user.id, target_user: user.username });
  });
  return { recovery_codes: codes };
}

/** Turns 2FA off: needs the password and a current code (or a recovery code), counted like sign-in codes. */
export async function disable(deps: Deps, user: AuthUser, input: { password: string; code: string; ip: string }) {
  const db = deps.database.db;
  if (!(await repo.isEnabled(db, user.id))) throw appError('TWO_FACTOR_NOT_ENABLED');
  await countAccountAttempt(deps, user, input.ip);
  const hash = await repo.passwordHash(db, user.id);
  if (!hash || !(await verifyPassword(hash, input.password))) {
    await writeLog(db, { type_log: 'auth', action: 'two_factor_failed', actor_id: user.id, reseller_id: user.id, target_user: user.username, ip: input.ip, value: 'disable' });
    throw appError('INVALID_PASSWORD');
  }
  if (!(await checkCode(deps, user.id, input.code))) {
    await writeLog(db, { type_log: 'auth', action: 'two_factor_failed', actor_id: user.id, reseller_id: user.id, target_user: user.username, ip: input.ip, value: 'disable' });
    throw appError('INVALID_2FA_CODE', { field: 'code' });
  }
  await succeeded(deps, accountKeys(deps, user.id));
  await withTx(deps.database, async (trx) => {
    await repo.removeTwoFactor(trx, user.id);
    await writeLog(trx, { type_log: 'auth', action: 'two_factor_disable', actor_id: user.id, reseller_id: user.id, target_user: user.username, ip: input.ip });
  });
}

/** Admin only: clears another account's 2FA (lost phone and codes) and ends its sessions. */
export async function reset(deps: Deps, actor: AuthUser, id: number) {
  if (actor.type !== 'admin') throw appError('FORBIDDEN');
  await withTx(deps.database, async (trx) => {
    const target = await findVisibleReseller(trx, actor, id);
    if (!target) throw appError('NOT_FOUND', { params: { what: 'Reseller' } });
    if (!(await repo.removeTwoFactor(trx, id))) throw appError('TWO_FACTOR_NOT_ENABLED');
    await clearKey(trx, accountKey(id));
    await revokeAllSessions(trx, id);
    await writeLog(trx, { type_log: 'auth', action: 'two_factor_reset', actor_id: actor.id, reseller_id: actor.id, target_reseller_id: id, target_user: target.username });
  });
  return { reset: true };
}

/**
 * After a right password: when the account has 2FA, a short-lived single-use challenge instead of a
 * session (only its hash is stored); undefined when no second step is needed.
 */
export async function challengeIfEnrolled(deps: Deps, reseller: Reseller, rememberMe: boolean) {
  if (!(await repo.isEnabled(deps.database.db, reseller.id))) return undefined;
  const { token, tokenHash } = newToken();
  const now = nowSec();
  await repo.createChallenge(deps.database.db, {
    token_hash: tokenHash,
    reseller_id: reseller.id,
    remember_me: rememberMe ? 1 : 0,
    expires_at: now + CHALLENGE_SECONDS,
    created_at: now,
  });
  return { two_factor_required: true as const, challenge: token, expires_in: CHALLENGE_SECONDS };
}

/** The second sign-in step: a TOTP code or a recovery code for a challenge -> the normal session answer. */
export async function completeSignIn(deps: Deps, input: { challenge: string; code: string; device_token?: string; ip: string; userAgent?: string }) {
  const db = deps.database.db;
  const now = nowSec();
  const challenge = await repo.findChallenge(db, hashToken(input.challenge));
  if (!challenge || challenge.used_at !== null || challenge.expires_at <= now) throw appError('TWO_FACTOR_CHALLENGE_EXPIRED');
  const reseller = await repo.activeReseller(db, challenge.reseller_id);
  if (!reseller) throw appError('TWO_FACTOR_CHALLENGE_EXPIRED');
  if (!(await repo.takeChallengeAttempt(db, challenge.id, CHALLENGE_MAX_ATTEMPTS, now))) {
    await logRateLimited(deps, reseller, input.ip);
    throw appError('RATE_LIMITED', { retryAfter: Math.max(1, challenge.expires_at - now) });
  }
  await countAccountAttempt(deps, reseller, input.ip);
  const how = await checkCode(deps, reseller.id, input.code);
  if (!how) {
    await writeLog(db, { type_log: 'auth', action: 'two_factor_failed', reseller_id: reseller.id, target_user: reseller.username, ip: input.ip, value: 'sign_in' });
    throw appError('INVALID_2FA_CODE', { status: 401 });
  }
  if (!(await repo.useChallenge(db, challenge.id, nowSec()))) throw appError('TWO_FACTOR_CHALLENGE_EXPIRED');
  await succeeded(deps, accountKeys(deps, reseller.id));
  const session = await startSession(deps, { reseller, rememberMe: challenge.remember_me === 1, ip: input.ip, userAgent: input.userAgent, secondFactor: how });
  return { ...session, device_token: await rememberDevice(deps, reseller.id, input.device_token) };
}

/** The code attempts of one account, counted before the code is checked (auth/throttle.ts). */
const accountKeys = ({ config }: Deps, resellerId: number): ThrottleKey[] => [
  { key: accountKey(resellerId), limit: config.loginMaxFailures, onSuccess: 'clear' },
];

function countAccountAttempt(deps: Deps, reseller: Pick<Reseller, 'id' | 'username'>, ip: string) {
  return checkAndCount(deps, accountKeys(deps, reseller.id), { action: 'two_factor_rate_limited', reseller_id: reseller.id, target_user: reseller.username, ip });
}

function logRateLimited({ database }: Deps, reseller: Pick<Reseller, 'id' | 'username'>, ip: string) {
  return writeLog(database.db, { type_log: 'auth', action: 'two_factor_rate_limited', reseller_id: reseller.id, target_user: reseller.username, ip });
}

/** 'totp' or 'recovery' when the code is right (and is spent), else null. */
async function checkCode(deps: Deps, resellerId: number, raw: string): Promise<'totp' | 'recovery' | null> {
  const db = deps.database.db;
  const code = normaliseCode(raw);
  if (isTotpCode(code)) {
    const row = await repo.findTwoFactor(db, resellerId);
    const secret = row?.enabled_at != null ? await openSecret(deps, resellerId, row.secret_enc) : null;
    const step = secret ? matchingStep(secret, code) : null;
    return step !== null && (await repo.claimStep(db, resellerId, step)) ? 'totp' : null;
  }
  if (code.length !== 16) return null;
  return (await repo.useRecoveryCode(db, resellerId, hashRecoveryCode(code), nowSec())) ? 'recovery' : null;
}
export { openSecret, sealSecret, signingKey } from './secrets.ts';
