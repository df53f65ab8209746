import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, freezeClock, nowMs, resetClock } from '../src/lib/clock.ts';
import { createReseller, groupIds } from './fixtures.ts';
import { ADMIN_PASSWORD, ENGINE, type TestContext, createTestContext } from './helpers.ts';

const PASS = 'Tz9-quartz-Vw8-lantern';
const STEP_MS = 30_000;

/** The code an authenticator app shows now (or `steps` periods later). */
function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: nowMs() + steps * STEP_MS });
}

/** Moves the server's and the test's clock (one clock in this process, held still from the start). */
const advance = (ms: number) => advanceClock(ms);

describe(`two-factor sign-in (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  const id: Record<string, number> = {};
  const secrets: Record<string, string> = {};
  const recovery: Record<string, string[]> = {};

  const post = (token: string | null, url: string, payload?: object) => t.call(token, { method: 'POST', url, payload });
  const signIn = (username: string, password = PASS) => post(null, '/api/auth/sign-in', { username, password });
  const secondStep = (challenge: string, code: string) => post(null, '/api/auth/sign-in/2fa', { challenge, code });
  const logs = (action: string) => t.database.db.selectFrom('logs').selectAll().where('action', '=', action).execute();

  async function challengeFor(username: string): Promise<string> {
    const res = await signIn(username);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().two_factor_required).toBe(true);
    expect(res.json().token).toBeUndefined();
    return res.json().challenge;
  }

  /** Signs in (password only), enrols and returns the session token. */
  async function enrol(username: string): Promise<string> {
    const token = (await signIn(username)).json().token as string;
    const setup = await post(token, '/api/profile/2fa/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    secrets[username] = setup.json().secret;
    const enabled = await post(token, '/api/profile/2fa/enable', { code: totpCode(secrets[username]) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    recovery[username] = enabled.json().recovery_codes;
    advance(STEP_MS); // the enrolment used this step's code
    return token;
  }

  beforeAll(async () => {
    t = await createTestContext();
    // time stands still unless a test moves it: a real 30 s step boundary must not fall between
    // two codes a test means to be of the same step
    freezeClock();
    admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    for (const [username, type] of [['alice', 'reseller'], ['bob', 'reseller'], ['carol', 'reseller'], ['mike', 'master']] as const) {
      id[username] = (await createReseller(t, admin, { username, password: PASS, type, groups })).id;
    }
  });
  afterAll(async () => {
    resetClock();
    await t.close();
  });

  it('enrols with a QR code, a secret kept encrypted, and a first code; then shows 10 recovery codes once', async () => {
    const token = (await signIn('alice')).json().token as string;
    const before = await t.call(token, { method: 'GET', url: '/api/profile/2fa' });
    expect(before.json()).toEqual({ enabled: false, recovery_codes_left: 0, required: false });
    expect((await t.call(token, { method: 'GET', url: '/api/profile' })).json()).toMatchObject({ two_factor_enabled: false, two_factor_required: false });

    const setup = await post(token, '/api/profile/2fa/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauth_url, qr } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain('alice');
    expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qr.split(',')[1], 'base64').toString()).toContain('<svg');
    const row = await t.database.db.selectFrom('two_factor').selectAll().where('reseller_id', '=', id.alice).executeTakeFirstOrThrow();
    expect(row.enabled_at).toBeNull();
    expect(row.secret_enc).not.toContain(secret);

    // Pending until confirmed: the password alone still signs in (another device's session).
    const other = (await signIn('alice')).json().token as string;
    expect(other).toBeDefined();

    const wrong = await post(token, '/api/profile/2fa/enable', { code: String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_2FA_CODE', field: 'code' });

    const enabled = await post(token, '/api/profile/2fa/enable', { code: totpCode(secret) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const codes: string[] = enabled.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){3}$/);
    const stored = await t.database.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('reseller_id', '=', id.alice).execute();
    expect(stored.map((s) => s.code_hash)).not.toContain(codes[0]);
    secrets.alice = secret;
    recovery.alice = codes;

    expect((await t.call(token, { method: 'GET', url: '/api/profile/2fa' })).json()).toEqual({ enabled: true, recovery_codes_left: 10, required: false });
    // Turning 2FA on ends the sessions opened without it; the one that turned it on goes on.
    expect((await t.call(other, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    expect((await t.call(token, { method: 'GET', url: '/api/profile' })).statusCode).toBe(200);
    expect((await post(token, '/api/profile/2fa/setup')).json().code).toBe('TWO_FACTOR_ALREADY_ENABLED');
    expect((await post(token, '/api/profile/2fa/enable', { code: totpCode(secret, 1) })).statusCode).toBe(409);
    expect(await logs('two_factor_enable')).toHaveLength(1);
  });

  it('asks for a second step after the right password, and refuses a code of a step already used', async () => {
    const sessionsBefore = (await t.database.db.selectFrom('sessions').select('id').where('reseller_id', '=', id.alice).execute()).length;
    const challenge = await challengeFor('alice');
    const after = (await t.database.db.selectFrom('sessions').select('id').where('reseller_id', '=', id.alice).execute()).length;
    expect(after).toBe(sessionsBefore);
    // A wrong password still answers like before, without a challenge.
    expect((await signIn('alice', 'not-the-password')).json().code).toBe('INVALID_CREDENTIALS');

    // The code that turned 2FA on belongs to the current step: replaying it is refused.
    const replay = await secondStep(challenge, totpCode(secrets.alice));
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('INVALID_2FA_CODE');

    advance(STEP_MS);
    const ok = await secondStep(challenge, totpCode(secrets.alice));
    expect(ok.statusCode, ok.body).toBe(200);
    const { token, user } = ok.json();
    expect(user).toMatchObject({ id: id.alice, username: 'alice', type: 'reseller' });
    expect((await t.call(token, { method: 'GET', url: '/api/profile' })).json()).toMatchObject({ username: 'alice', two_factor_enabled: true });

    // The challenge is single-use, and the same code cannot open another one.
    expect((await secondStep(challenge, totpCode(secrets.alice, 1))).json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    expect((await secondStep(await challengeFor('alice'), totpCode(secrets.alice))).json().code).toBe('INVALID_2FA_CODE');
    const signIns = await t.database.db.selectFrom('logs').select('value').where('action', '=', 'sign_in').where('reseller_id', '=', id.alice).execute();
    expect(signIns.map((l) => l.value)).toContain('totp');
  });

  it('accepts the next step (clock drift) but not a code two steps away; a challenge expires after 5 minutes', async () => {
    advance(STEP_MS);
    expect((await secondStep(await challengeFor('alice'), totpCode(secrets.alice, 2))).statusCode).toBe(401);
    expect((await secondStep(await challengeFor('alice'), totpCode(secrets.alice, 1))).statusCode).toBe(200);

    const old = await challengeFor('alice');
    advance(5 * 60_000 + 1000);
    const late = await secondStep(old, totpCode(secrets.alice));
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
    expect((await secondStep('made-up-challenge', '123456')).json().code).toBe('TWO_FACTOR_CHALLENGE_EXPIRED');
  });

  it('takes each recovery code once, typed in any case and spacing', async () => {
    const code = recovery.alice[0];
    const ok = await secondStep(await challengeFor('alice'), ` ${code.toUpperCase().replace(/-/g, ' ')} `);
    expect(ok.statusCode, ok.body).toBe(200);
    const again = await secondStep(await challengeFor('alice'), code);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('INVALID_2FA_CODE');
    expect((await t.call(ok.json().token, { method: 'GET', url: '/api/profile/2fa' })).json().recovery_codes_left).toBe(9);
    const signIns = await t.database.db.selectFrom('logs').select('value').where('action', '=', 'sign_in').where('reseller_id', '=', id.alice).execute();
    expect(signIns.map((l) => l.value)).toContain('recovery');
  });

  it('a password change or a block ends a sign-in waiting for its second step', async () => {
    const groups = await groupIds(t, admin);
    const dave = (await createReseller(t, admin, { username: 'dave', password: PASS, type: 'reseller', groups })).id;
    await enrol('dave');
    const pending = await challengeFor('dave');
    const changed = await t.call(admin, { method: 'PUT', url: `/api/resellers/${dave}`, payload: { password: 'Outra-senha-bem-longa-77' } });
    expect(changed.statusCode, changed.body).toBe(200);
    const late = await secondStep(pending, recovery.dave[0]);
    expect(late.statusCode).not.toBe(200);
    expect(late.json().token).toBeUndefined();

    advance(STEP_MS);
    expect((await signIn('dave')).statusCode, 'the old password no longer starts a sign-in').toBe(401);
    const res = await signIn('dave', 'Outra-senha-bem-longa-77');
    const waiting = res.json().challenge as string;
    expect((await post(admin, `/api/resellers/${dave}/block`)).statusCode).toBe(200);
    const blocked = await secondStep(waiting, totpCode(secrets.dave));
    expect(blocked.statusCode).not.toBe(200);
  });

  it('answers 401 to wrong codes, then 429 (logged) even for the right code; a challenge takes at most 5 tries', async () => {
    await enrol('bob');
    const challenge = await challengeFor('bob');
    const wrong = String((Number(totpCode(secrets.bob)) + 500_000) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const res = await secondStep(challenge, wrong);
      expect(res.statusCode, `try ${i + 1}: ${res.body}`).toBe(401);
      expect(res.json().code).toBe('INVALID_2FA_CODE');
    }
    const limited = await secondStep(challenge, totpCode(secrets.bob));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The account stays limited across challenges.
    const fresh = await secondStep(await challengeFor('bob'), totpCode(secrets.bob));
    expect(fresh.statusCode).toBe(429);
    expect((await logs('two_factor_failed')).filter((l) => l.reseller_id === id.bob)).toHaveLength(5);
    expect((await logs('two_factor_rate_limited')).filter((l) => l.reseller_id === id.bob).length).toBeGreaterThanOrEqual(2);
  });

  it('counts parallel guesses before checking them: at most 5 of 30 get an answer other than 429', async () => {
    await enrol('carol');
    const challenges = await Promise.all([1, 2, 3].map(() => challengeFor('carol')));
    const wrong = String((Number(totpCode(secrets.carol)) + 500_000) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => secondStep(challenges[i % 3], wrong)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length, 'some guesses were really checked').toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });

  it('turns off with the password and a code', async () => {
    advance(STEP_MS);
    const token = (await secondStep(await challengeFor('alice'), totpCode(secrets.alice))).json().token as string;
    advance(STEP_MS);
    const badPassword = await post(token, '/api/profile/2fa/disable', { password: 'wrong-password', code: totpCode(secrets.alice) });
    expect(badPassword.json()).toMatchObject({ statusCode: 400, code: 'INVALID_PASSWORD', field: 'password' });
    const badCode = await post(token, '/api/profile/2fa/disable', { password: PASS, code: '000000' });
    expect(badCode.json()).toMatchObject({ statusCode: 400, code: 'INVALID_2FA_CODE' });
    expect((await post(token, '/api/profile/2fa/disable', { password: PASS, code: totpCode(secrets.alice) })).statusCode).toBe(204);
    expect((await signIn('alice')).json().token).toBeDefined();
    expect(await t.database.db.selectFrom('two_factor_recovery_codes').select('id').where('reseller_id', '=', id.alice).execute()).toEqual([]);
    expect((await post(token, '/api/profile/2fa/disable', { password: PASS, code: '123456' })).json().code).toBe('TWO_FACTOR_NOT_ENABLED');
  });

  it('lets only an admin reset a reseller in scope: logged, sessions ended, password alone signs in again', async () => {
    const aliceToken = await enrol('alice');
    const mike = (await signIn('mike')).json().token as string;
    const plain = (await signIn('alice')).json();
    expect(plain.two_factor_required).toBe(true);

    expect((await post(mike, `/api/resellers/${id.alice}/2fa/reset`)).statusCode).toBe(403);
    expect((await post(mike, `/api/resellers/${id.alice}/2fa/reset`)).json().code).toBe('FORBIDDEN');
    expect((await post(aliceToken, `/api/resellers/${id.bob}/2fa/reset`)).statusCode).toBe(403);
    expect((await post(admin, '/api/resellers/987654/2fa/reset')).statusCode).toBe(404);
    expect((await post(admin, '/api/resellers/1/2fa/reset')).statusCode).toBe(404);
    expect((await post(admin, `/api/resellers/${id.mike}/2fa/reset`)).json().code).toBe('TWO_FACTOR_NOT_ENABLED');
    expect(await logs('two_factor_reset')).toHaveLength(0);

    const res = await post(admin, `/api/resellers/${id.alice}/2fa/reset`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ reset: true });
    const [log] = await logs('two_factor_reset');
    expect(log).toMatchObject({ actor_id: 1, target_reseller_id: id.alice, target_user: 'alice' });
    expect((await t.call(aliceToken, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    expect((await signIn('alice')).json().token).toBeDefined();
    // A locked-out account (too many wrong codes) is reset the same way.
    expect((await post(admin, `/api/resellers/${id.bob}/2fa/reset`)).statusCode).toBe(200);
    expect((await signIn('bob')).json().token).toBeDefined();
  });
});

describe(`REQUIRE_ADMIN_2FA=1 (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ requireAdmin2fa: true, twoFactorKey: 'k'.repeat(40) });
  });
  afterAll(() => t.close());

  it('lets an admin without 2FA only enrol (and sign out); after enrolment everything opens', async () => {
    const token = await t.login('admin');
    const profile = await t.call(token, { method: 'GET', url: '/api/profile' });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ type: 'admin', two_factor_enabled: false, two_factor_required: true });
    for (const url of ['/api/resellers', '/api/datacomplements', '/api/dashboard']) {
      const res = await t.call(token, { method: 'GET', url });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe('TWO_FACTOR_REQUIRED');
    }
    expect((await t.call(token, { method: 'GET', url: '/api/profile/2fa' })).json()).toEqual({ enabled: false, recovery_codes_left: 0, required: true });

    const setup = await t.call(token, { method: 'POST', url: '/api/profile/2fa/setup' });
    expect(setup.statusCode).toBe(200);
    expect((await t.call(token, { method: 'POST', url: '/api/profile/2fa/enable', payload: { code: totpCode(setup.json().secret) } })).statusCode).toBe(200);
    expect((await t.call(token, { method: 'GET', url: '/api/resellers' })).statusCode).toBe(200);
    expect((await t.call(token, { method: 'GET', url: '/api/profile' })).json().two_factor_required).toBe(false);
    // With TWO_FACTOR_KEY set, no key is generated into the database.
    expect(await t.database.db.selectFrom('server_keys').selectAll().execute()).toEqual([]);
    expect((await t.call(token, { method: 'DELETE', url: '/api/auth/sign-out' })).statusCode).toBe(204);

    const again = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(again.json().two_factor_required).toBe(true);
  });

  it('does not gate masters and resellers', async () => {
    const admin = (await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'admin', password: ADMIN_PASSWORD } })).json();
    expect(admin.challenge).toBeDefined();
    const db = t.database.db;
    const group = await db.selectFrom('groups').select('group_id').where('type', '=', 'master').executeTakeFirstOrThrow();
    const { hashPassword } = await import('../src/modules/auth/tokens.ts');
    const r = await db
      .insertInto('resellers')
      .values({ username: 'mary', password_hash: await hashPassword(PASS), member_group_id: group.group_id, owner_id: 1, credits: 0, status: 1, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('reseller_tree').values([{ ancestor_id: r.id, descendant_id: r.id, depth: 0 }, { ancestor_id: 1, descendant_id: r.id, depth: 1 }]).execute();
    const mary = await t.login('mary', PASS);
    expect((await t.call(mary, { method: 'GET', url: '/api/profile' })).json().two_factor_required).toBe(false);
    expect((await t.call(mary, { method: 'GET', url: '/api/resellers' })).statusCode).toBe(200);
  });
});
