import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReseller, createSignedInReseller, groupIds } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

const PASS = 'Str0ng-pass!';

describe(`hardening (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let master: { id: number; token: string };
  let plain: { id: number; token: string };
  let sub: { id: number };

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    const g = await groupIds(t, admin);
    const m = await createSignedInReseller(t, admin, { username: 'h_master', password: PASS, type: 'master', credits: 10, groups: g });
    master = { id: m.id, token: m.token };
    sub = { id: (await createReseller(t, master.token, { username: 'h_sub', password: PASS, type: 'reseller', groups: g })).id };
    const p = await createSignedInReseller(t, admin, { username: 'h_plain', password: PASS, type: 'reseller', groups: g });
    plain = { id: p.id, token: p.token };
  });
  afterAll(() => t.close());

  it('only a manager sets domains, and only for resellers below it', async () => {
    const put = (token: string, id: number, dns: string) => t.call(token, { method: 'PUT', url: `/api/resellers/${id}/add_domain`, payload: { dns_reseller: dns } });
    expect((await put(plain.token, plain.id, 'evil.example.com')).statusCode).toBe(404);
    expect((await put(master.token, master.id, 'evil.example.com')).statusCode).toBe(404);
    expect((await put(master.token, sub.id, 'tv.example.com')).statusCode).toBe(201);
    const rows = await t.database.db.selectFrom('reseller_domains').select('dns_reseller').execute();
    expect(rows.map((r) => r.dns_reseller)).toEqual(['tv.example.com']);
  });

  it('a unicode domain too long once in punycode is a 400, not a database error', async () => {
    const dns = `https://${`${'ü'.repeat(20)}.`.repeat(7)}${'a'.repeat(55)}.com`;
    const res = await t.call(master.token, { method: 'PUT', url: `/api/resellers/${sub.id}/add_domain`, payload: { dns_reseller: dns } });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('dns_reseller');
  });

  it('NUL characters are a 400 naming the field, on sign-in, bodies and query strings', async () => {
    const signIn = await t.call(null, { method: 'POST', url: '/api/auth/sign-in', payload: { username: 'ad\u0000min', password: 'x' } });
    expect(signIn.statusCode).toBe(400);
    expect(signIn.json()).toMatchObject({ code: 'VALIDATION', field: 'username' });
    for (const url of ['/api/users?text_search=%00', '/api/resellers?username=a%00b', '/api/logs?type=%00']) {
      const res = await t.call(admin, { method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('a mint that would overflow a balance is refused with 409 CREDIT_LIMIT and changes nothing', async () => {
    await t.database.db.updateTable('resellers').set({ credits: 2_147_483_000 }).where('id', '=', sub.id).execute();
    const res = await t.call(admin, { method: 'POST', url: `/api/resellers/${sub.id}/credits`, payload: { value: 1_000_000 } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CREDIT_LIMIT');
    const row = await t.database.db.selectFrom('resellers').select('credits').where('id', '=', sub.id).executeTakeFirstOrThrow();
    expect(row.credits).toBe(2_147_483_000);
  });
});
