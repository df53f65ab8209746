import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { advanceClock, nowMs, nowSec, resetClock } from '../src/lib/clock.ts';
import { adminWithPackage, createLine, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// API keys (docs/api.md): a program acting for its owner, on the routes that name a scope it holds,
// inside the owner's subtree and balance; limited per minute in the database; revoked at once.

const PASS = 'Kq7.vX2p_Rz9@tLm';

describe(`API keys (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let reseller: { id: number; token: string };
  let other: { id: number; token: string };

  const makeKey = async (token: string, body: Record<string, unknown>) => {
    const res = await t.call(token, { method: 'POST', url: '/api/api-keys', payload: { name: 'Bot', ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; key: string; scopes: string[] };
  };
  const credits = async (id: number) => Number((await t.database.db.selectFrom('resellers').select('credits').where('id', '=', id).executeTakeFirstOrThrow()).credits);

  beforeAll(async () => {
    t = await createTestContext();
    let groups: Record<string, number>;
    ({ admin, groups, pkg } = await adminWithPackage(t));
    reseller = await createSignedInReseller(t, admin, { username: 'key_res', password: PASS, type: 'reseller', credits: 10, groups });
    other = await createSignedInReseller(t, admin, { username: 'key_other', password: PASS, type: 'reseller', credits: 5, groups });
  });
  afterAll(async () => {
    await t?.close();
    resetClock();
  });

  it('is shown once, stored as a hash, listed with its scopes and addresses', async () => {
    const made = await makeKey(reseller.token, { name: 'WhatsApp bot', scopes: ['lines:read', 'credits:read'], allowed_ips: ['203.0.113.0/24', '2001:db8::1'] });
    expect(made.key).toMatch(/^rk_live_[0-9A-Za-z]{43}$/);
    const listed = (await t.call(reseller.token, { method: 'GET', url: '/api/api-keys' })).json().data;
    expect(listed[0]).toMatchObject({ id: made.id, name: 'WhatsApp bot', scopes: ['lines:read', 'credits:read'], allowed_ips: ['203.0.113.0/24', '2001:db8::1'], revoked_at: null, last_used_at: null });
    expect(JSON.stringify(listed)).not.toContain(made.key);
    const stored = await t.database.db.selectFrom('api_keys').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.key.slice(8));
    // another account sees none of them
    expect((await t.call(other.token, { method: 'GET', url: '/api/api-keys' })).json().data).toEqual([]);
  });

  it('refuses bad input with the field, and changes nothing', async () => {
    const bad = async (payload: Record<string, unknown>) => (await t.call(reseller.token, { method: 'POST', url: '/api/api-keys', payload: { name: 'x', scopes: ['lines:read'], ...payload } })).json();
    expect((await bad({ allowed_ips: ['10.0.0.0/33'] })).field).toBe('allowed_ips');
    expect((await bad({ allowed_ips: ['not-an-ip'] })).field).toBe('allowed_ips');
    expect((await bad({ expires_at: 1000 })).field).toBe('expires_at');
    expect((await bad({ scopes: ['users:admin'] })).code).toBe('VALIDATION');
    expect((await bad({ scopes: [] })).code).toBe('VALIDATION');
    expect((await bad({ name: ' ' })).field).toBe('name');
    expect((await t.call(reseller.token, { method: 'GET', url: '/api/api-keys' })).json().data).toHaveLength(1);
  });

  it("acts as its owner: the owner's lines only, and nothing a key may not call", async () => {
    const mine = await createLine(t, reseller.token, { package_id: pkg });
    const theirs = await createLine(t, other.token, { package_id: pkg });
    const { key } = await makeKey(reseller.token, { scopes: ['lines:read'] });
    const list = (await t.call(key, { method: 'GET', url: '/api/users' })).json();
    expect(list.data.map((l: { id: number }) => l.id)).toEqual([mine.id]);
    expect((await t.call(key, { method: 'GET', url: `/api/users/${theirs.id}` })).statusCode).toBe(404);
    expect((await t.call(key, { method: 'GET', url: `/api/users/${mine.id}` })).json().username).toBe(mine.username);
    // a read key cannot spend or change lines
    const sell = await t.call(key, { method: 'POST', url: '/api/users', payload: { package_id: pkg }, headers: { 'idempotency-key': 'k-read-1' } });
    expect([sell.statusCode, sell.json().code]).toEqual([403, 'SCOPE_REQUIRED']);
    expect((await t.call(key, { method: 'POST', url: `/api/users/${mine.id}/block` })).json().code).toBe('SCOPE_REQUIRED');
    // keys never manage keys, resellers, settings, 2FA, passwords or sessions, whatever their scopes
    const { key: full } = await makeKey(reseller.token, { scopes: ['lines:read', 'lines:write', 'credits:read'] });
    for (const [method, url] of [
      ['GET', '/api/api-keys'],
      ['POST', '/api/api-keys'],
      ['GET', '/api/resellers'],
      ['PUT', `/api/users/${mine.id}`],
      ['DELETE', `/api/users/${mine.id}`],
      ['GET', '/api/profile/2fa'],
      ['DELETE', '/api/auth/sign-out'],
      ['GET', '/api/logs'],
    ] as const) {
      const res = await t.call(full, { method, url, payload: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect([url, res.statusCode, res.json().code]).toEqual([url, 403, 'SCOPE_REQUIRED']);
    }
    const adminKey = (await makeKey(admin, { scopes: ['lines:read', 'lines:write', 'credits:read'] })).key;
    expect((await t.call(adminKey, { method: 'PUT', url: '/api/admin/settings', payload: { trial_limit_per_day: '9' } })).json().code).toBe('SCOPE_REQUIRED');
    expect((await t.call(adminKey, { method: 'GET', url: '/api/admin/settings' })).json().code).toBe('SCOPE_REQUIRED');
  });

  it('sells and renews with an Idempotency-Key only, within the balance, logged with its name', async () => {
    const { key } = await makeKey(reseller.token, { name: 'Site', scopes: ['lines:write', 'lines:read', 'credits:read'] });
    const before = await credits(reseller.id);
    const without = await t.call(key, { method: 'POST', url: '/api/users', payload: { package_id: pkg } });
    expect([without.statusCode, without.json().field]).toEqual([400, 'Idempotency-Key']);
    expect(await credits(reseller.id)).toBe(before);
    const sell = () => t.call(key, { method: 'POST', url: '/api/users', payload: { package_id: pkg }, headers: { 'idempotency-key': 'sale-0001' } });
    const first = await sell();
    expect(first.statusCode, first.body).toBe(201);
    const again = await sell();
    expect([again.statusCode, again.json().id, again.headers['idempotent-replayed']]).toEqual([201, first.json().id, 'true']);
    expect(await credits(reseller.id)).toBe(before - 1);
    const renew = await t.call(key, { method: 'POST', url: `/api/users/${first.json().id}/renew`, payload: { package_id: pkg }, headers: { 'idempotency-key': 'renew-0001' } });
    expect(renew.statusCode, renew.body).toBe(200);
    expect(renew.json().exp_date).toBeGreaterThan(first.json().exp_date);
    expect((await t.call(key, { method: 'GET', url: '/api/profile' })).json().credits).toBe(before - 2);
    const logs = await t.database.db.selectFrom('logs').select(['action', 'api_key_name']).where('actor_id', '=', reseller.id).where('action', 'in', ['user_create', 'user_renew']).orderBy('id').execute();
    expect(logs.slice(-2)).toEqual([
      { action: 'user_create', api_key_name: 'Site' },
      { action: 'user_renew', api_key_name: 'Site' },
    ]);
    // the log list shows it to the owner
    const listed = (await t.call(reseller.token, { method: 'GET', url: '/api/logs?actions=user_renew' })).json().data;
    expect(listed[0]).toMatchObject({ action: 'user_renew', api_key: 'Site' });
    // the owner's own session writes no key name
    await createLine(t, reseller.token, { package_id: pkg });
    const last = await t.database.db.selectFrom('logs').select('api_key_name').where('action', '=', 'user_create').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last.api_key_name).toBeNull();
    // a spend past the balance is refused as for the owner
    await t.database.db.updateTable('resellers').set({ credits: 0 }).where('id', '=', reseller.id).execute();
    const broke = await t.call(key, { method: 'POST', url: '/api/users', payload: { package_id: pkg }, headers: { 'idempotency-key': 'sale-0002' } });
    expect(broke.json().code).toBe('INSUFFICIENT_CREDITS');
    await t.database.db.updateTable('resellers').set({ credits: 10 }).where('id', '=', reseller.id).execute();
  });

  it('holds its allowed addresses, its expiry, its revocation and its owner being blocked', async () => {
    const { id, key } = await makeKey(reseller.token, { scopes: ['credits:read'], allowed_ips: ['203.0.113.0/24'] });
    const from = (ip: string) => t.app.inject({ method: 'GET', url: '/api/profile', headers: { authorization: `Bearer ${key}` }, remoteAddress: ip });
    expect((await from('198.51.100.4')).json().code).toBe('IP_NOT_ALLOWED');
    expect((await from('203.0.113.9')).statusCode).toBe(200);
    const used = (await t.call(reseller.token, { method: 'GET', url: '/api/api-keys' })).json().data.find((k: { id: number }) => k.id === id);
    expect(used).toMatchObject({ last_used_ip: '203.0.113.9', last_used_at: expect.any(Number) });
    expect((await t.call(reseller.token, { method: 'DELETE', url: `/api/api-keys/${id}` })).statusCode).toBe(204);
    expect((await from('203.0.113.9')).statusCode).toBe(401);
    expect((await t.call(other.token, { method: 'DELETE', url: `/api/api-keys/${id}` })).statusCode).toBe(404);

    const expiring = await makeKey(reseller.token, { scopes: ['credits:read'], expires_at: nowSec() + 3600 });
    expect((await t.call(expiring.key, { method: 'GET', url: '/api/profile' })).statusCode).toBe(200);
    await t.database.db.updateTable('api_keys').set({ expires_at: nowSec() - 1 }).where('id', '=', expiring.id).execute();
    expect((await t.call(expiring.key, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);

    // a block ends every way in, keys too: unblocked, the key stays revoked
    const owned = await makeKey(other.token, { scopes: ['credits:read'] });
    expect((await t.call(admin, { method: 'POST', url: `/api/resellers/${other.id}/block` })).statusCode).toBe(200);
    expect((await t.call(owned.key, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    expect((await t.call(admin, { method: 'POST', url: `/api/resellers/${other.id}/unblock` })).statusCode).toBe(200);
    expect((await t.call(owned.key, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    expect((await t.call('rk_live_unknown', { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
  });

  it('an account holds at most 20 live keys', async () => {
    const many = await createSignedInReseller(t, admin, { username: 'key_many', password: PASS, type: 'reseller', credits: 0, groups: await groupIds(t, admin) });
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await makeKey(many.token, { name: `k${i}`, scopes: ['lines:read'] })).id);
    const over = await t.call(many.token, { method: 'POST', url: '/api/api-keys', payload: { name: 'one more', scopes: ['lines:read'] } });
    expect([over.statusCode, over.json().code]).toEqual([409, 'API_KEY_LIMIT']);
    expect((await t.call(many.token, { method: 'DELETE', url: `/api/api-keys/${ids[0]}` })).statusCode).toBe(204);
    await makeKey(many.token, { name: 'one more', scopes: ['lines:read'] });
  });

  it('is limited per minute across processes (the count is in the database), with Retry-After', async () => {
    expect((await t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { api_key_requests_per_minute: '4' } })).statusCode).toBe(200);
    const second = await buildApp(t.deps, { logger: false });
    try {
      const { key } = await makeKey(reseller.token, { scopes: ['credits:read'] });
      const apps = [t.app, second];
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof t.app.inject>> | undefined;
      // The count is per clock minute: the clock moves to the start of the next one, so all six
      // requests fall in it. (Run near a minute's end, a turn between the fifth and the sixth let the sixth through.)
      advanceClock(60_000 - (nowMs() % 60_000) + 100);
      const minute = Math.floor(nowMs() / 60_000);
      for (let i = 0; i < 6; i++) {
        const res = await apps[i % 2].inject({ method: 'GET', url: '/api/profile', headers: { authorization: `Bearer ${key}` } });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) limited = res;
      }
      expect(Math.floor(nowMs() / 60_000), 'the six requests took over a minute').toBe(minute);
      // the fifth and sixth are refused, whichever process they reach
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      expect(limited?.json().code).toBe('RATE_LIMITED');
      expect(Number(limited?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(limited?.headers['retry-after'])).toBeLessThanOrEqual(60);
    } finally {
      await second.close();
      await t.call(admin, { method: 'PUT', url: '/api/admin/settings', payload: { api_key_requests_per_minute: '60' } });
    }
  });
});
