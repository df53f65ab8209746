import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { hashPassword } from '../src/modules/auth/tokens.ts';
import { ADMIN_PASSWORD, ENGINE, type TestContext, createTestContext } from './helpers.ts';

describe(`auth (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ loginMaxFailures: 3 });
    const db = t.database.db;
    const group = await db.selectFrom('groups').select('group_id').where('type', '=', 'reseller').executeTakeFirstOrThrow();
    const hash = await hashPassword('blocked-pass-1');
    for (const [username, status] of [['blockeduser', 0], ['activeuser', 1]] as const) {
      const r = await db
        .insertInto('resellers')
        .values({ username, password_hash: hash, member_group_id: group.group_id, owner_id: 1, credits: 0, status, created_at: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('reseller_tree').values([{ ancestor_id: r.id, descendant_id: r.id, depth: 0 }, { ancestor_id: 1, descendant_id: r.id, depth: 1 }]).execute();
    }
  });
  afterAll(() => t.close());

  it('signs in, returns an opaque token and the profile, and records last_login and a log row', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'ADMIN', password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token.length).toBeGreaterThanOrEqual(40);
    expect(body.user).toMatchObject({ id: 1, username: 'admin', type: 'admin', credits: 0 });
    const profile = await t.call(body.token, { method: 'GET', url: '/api/profile' });
    expect(profile.json()).toMatchObject({ username: 'admin', type: 'admin' });
    const stored = await t.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.some((s) => s.token_hash === body.token)).toBe(false);
    const admin = await t.database.db.selectFrom('resellers').select('last_login').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(admin.last_login).toBeGreaterThan(0);
    const log = await t.database.db.selectFrom('logs').selectAll().where('action', '=', 'sign_in').execute();
    expect(log.length).toBeGreaterThan(0);
  });

  it('answers the same for a wrong password and an unknown user, and logs both', async () => {
    const wrong = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'activeuser', password: 'nope-nope' } });
    const unknown = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'ghost', password: 'nope-nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const failed = await t.database.db.selectFrom('logs').select('target_user').where('action', '=', 'sign_in_failed').execute();
    expect(failed.map((f) => f.target_user)).toEqual(expect.arrayContaining(['activeuser', 'ghost']));
  });

  it('refuses a blocked reseller with the right password', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'blockeduser', password: 'blocked-pass-1' } });
    expect(res.statusCode).toBe(401);
  });

  it('sign-out revokes only that token', async () => {
    const a = await t.login('admin');
    const b = await t.login('admin');
    expect((await t.call(a, { method: 'DELETE', url: '/api/auth/sign-out' })).statusCode).toBe(204);
    expect((await t.call(a, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    expect((await t.call(b, { method: 'GET', url: '/api/profile' })).statusCode).toBe(200);
  });

  it('rejects missing, garbage and expired tokens', async () => {
    expect((await t.call(null, { method: 'GET', url: '/api/profile' })).json().code).toBe('UNAUTHORIZED');
    expect((await t.call('garbage', { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    const token = await t.login('admin');
    await t.database.db.updateTable('sessions').set({ last_seen_at: nowSec() - 31 * 60 }).execute();
    expect((await t.call(token, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    const token2 = await t.login('admin');
    await t.database.db.updateTable('sessions').set({ expires_at: nowSec() - 1 }).execute();
    expect((await t.call(token2, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
  });

  it('keeps a remember-me session past the idle timeout', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'admin', password: ADMIN_PASSWORD, remember_me: true } });
    const token = res.json().token;
    await t.database.db.updateTable('sessions').set({ last_seen_at: nowSec() - 2 * 3600 }).where('remember_me', '=', 1).execute();
    expect((await t.call(token, { method: 'GET', url: '/api/profile' })).statusCode).toBe(200);
  });

  it('rate-limits failed sign-ins per username with Retry-After, even with the right password', async () => {
    for (let i = 0; i < 3; i++) {
      await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'activeuser', password: 'wrong-wrong' } });
    }
    const res = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'activeuser', password: 'blocked-pass-1' } });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('validates the sign-in body', async () => {
    const res = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'x'.repeat(10_000), password: 'a' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'username' });
    const missing = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'admin' } });
    expect(missing.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION', field: 'password' });
  });
});
