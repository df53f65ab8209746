import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// What the signed-in request's session check answers: the 2FA flag read with the session is never
// stale, a revoked or unknown token is refused. How many statements it costs: perf/request-overhead.
describe(`the session check (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t?.close());

  const profile = (token: string) => t.app.inject({ method: 'GET', url: '/api/profile', headers: { authorization: `Bearer ${token}` } });

  it('answers /api/profile the same every time', async () => {
    const token = await t.login('admin');
    for (let i = 0; i < 3; i++) {
      const res = await profile(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ username: 'admin', two_factor_enabled: false, two_factor_required: false });
    }
  });

  it('reads the 2FA flag with the session: on, off and on again are seen at once', async () => {
    const token = await t.login('admin');
    const on = () => t.database.db.insertInto('two_factor').values({ reseller_id: 1, secret_enc: 'x', enabled_at: 1, last_step: null, created_at: 1 }).execute();
    await on();
    expect((await profile(token)).json()).toMatchObject({ two_factor_enabled: true });
    await t.database.db.updateTable('two_factor').set({ enabled_at: null }).where('reseller_id', '=', 1).execute();
    expect((await profile(token)).json()).toMatchObject({ two_factor_enabled: false });
    await t.database.db.deleteFrom('two_factor').execute();
    expect((await profile(token)).json()).toMatchObject({ two_factor_enabled: false });
  });

  it('refuses a revoked or unknown token', async () => {
    const token = await t.login('admin');
    expect((await profile(token)).statusCode).toBe(200);
    expect((await t.call(token, { method: 'DELETE', url: '/api/auth/sign-out' })).statusCode).toBe(204);
    expect((await profile(token)).statusCode).toBe(401);
    expect((await profile(`${token}x`)).statusCode).toBe(401);
  });
});
