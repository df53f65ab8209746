import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_DEFAULTS, createBouquet } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';

// Found by the fuzzer: body fields the schema does not list reached the UPDATE/INSERT
// (an extra "id" renumbered a news item; "constructor" was a 500).
describe(`extra body fields never reach the tables (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let bouquet: number;

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    bouquet = await createBouquet(t, admin, 'extra fields');
  });
  afterAll(() => t.close());

  it('news: an extra id or constructor is ignored', async () => {
    const before = await t.database.db.selectFrom('news').select('id').orderBy('id').execute();
    for (const extra of [{ id: 999 }, { constructor: 'x' }, { level: 1, status: 1, deleted: 1 }]) {
      const res = await t.call(admin, { method: 'PUT', url: '/api/news/1', payload: { title: 'Notice', body: 'Text', level: 1, status: 1, ...extra } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().id).toBe(1);
    }
    expect(await t.database.db.selectFrom('news').select('id').orderBy('id').execute()).toEqual(before);
  });

  it('packages: an extra id or constructor is ignored on create and update', async () => {
    const base = { ...PACKAGE_DEFAULTS, package_name: 'Extra', bouquets: [String(bouquet)] };
    const created = await t.call(admin, { method: 'POST', url: '/api/admin/packages', payload: { ...base, id: 777, constructor: 'x' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect(id).not.toBe(777);
    const updated = await t.call(admin, { method: 'PUT', url: `/api/admin/packages/${id}`, payload: { package_name: 'Extra 2', bouquets: [String(bouquet)], id: 778, toString: 'x' } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ id, package_name: 'Extra 2' });
    const ids = (await t.database.db.selectFrom('packages').select('id').execute()).map((r) => r.id);
    expect(ids).toContain(id);
    expect(ids).not.toContain(777);
    expect(ids).not.toContain(778);
  });
});
