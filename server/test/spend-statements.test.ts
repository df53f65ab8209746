import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureQueries } from '../src/db/plans.ts';
import * as lines from '../src/modules/lines/service.ts';
import * as resellers from '../src/modules/resellers/credits.ts';
import type { AuthUser } from '../src/modules/auth/service.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { createBouquet, createPackage, groupIds } from './fixtures.ts';

const PASS = 'Spend-pass-2026';

describe(`what one spend sends (${ENGINE})`, () => {
  let t: TestContext;
  let pkg: number;
  let res: AuthUser;
  let master: AuthUser;
  let sub: number;
  beforeAll(async () => {
    t = await createTestContext();
    const admin = await t.login('admin');
    const groups = await groupIds(t, admin);
    const bouquet = await createBouquet(t, admin, 'All');
    pkg = await createPackage(t, admin, 'One credit', bouquet, {});
    const m = await t.call(admin, { method: 'POST', url: '/api/resellers', payload: { username: 'sp_master', password: PASS, member_group_id: groups.master, credits: 1000 } });
    master = { id: m.json().id, username: 'sp_master', type: 'master', credits: 0, sessionId: 0 };
    const mt = await t.login('sp_master', PASS);
    const r = await t.call(mt, { method: 'POST', url: '/api/resellers', payload: { username: 'sp_res', password: PASS, member_group_id: groups.reseller, credits: 100 } });
    sub = r.json().id;
    res = { id: sub, username: 'sp_res', type: 'reseller', credits: 0, sessionId: 0 };
  });
  afterAll(() => t?.close());

  it('prints', async () => {
    const d = t.deps;
    const q1 = await captureQueries(t.database, (db) => lines.create({ ...d, database: { ...t.database, db } }, res, { package_id: pkg }, 'k1'));
    console.log(q1.map((q) => q.sql).join('\n'));
    const q2 = await captureQueries(t.database, (db) => resellers.changeCredits({ ...d, database: { ...t.database, db } }, master, sub, 3, 'k2'));
    console.log('----\n' + q2.map((q) => q.sql).join('\n'));
    expect(q1.length).toBeGreaterThan(0);
  });
});
