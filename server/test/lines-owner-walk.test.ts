// The users list sorted by the owner's username, on the path a million lines take: with more
// matches than the count's cap, the page walks the owners in username order and each one's lines in
// id order (SQLite a CROSS JOIN, PostgreSQL a LATERAL subquery), finds its keys on the indexes,
// then fetches its rows. A cap of 3 puts this small seed on that path; every page must equal the
// plain sort of the caller's lines.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LIST_COUNT_CAP = '3';
});
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, createLine, createSignedInReseller } from './fixtures.ts';

const PASS = 'Str0ng-pass!';

interface Row {
  id: number;
  master_username: string;
  enabled: number;
}

describe(`the users list walked by owner (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let top: { id: number; token: string };

  beforeAll(async () => {
    t = await createTestContext();
    const made = await adminWithPackage(t);
    admin = made.admin;
    const reseller = (by: string, username: string, type: 'master' | 'reseller', credits: number) =>
      createSignedInReseller(t, by, { username, password: PASS, type, credits, groups: made.groups });
    top = await reseller(admin, 'ow_top', 'master', 500);
    const other = await reseller(admin, 'ow_other', 'master', 100);
    // owners whose usernames sort apart from their creation order
    const owners = [top, await reseller(top.token, 'ow_c', 'reseller', 50), await reseller(top.token, 'ow_a', 'reseller', 50), other, await reseller(top.token, 'ow_b', 'reseller', 50)];
    const ids: number[] = [];
    for (const [i, owner] of owners.entries()) {
      for (let k = 0; k < 3 + (i % 3); k++) ids.push((await createLine(t, owner.token, { package_id: made.pkg })).id);
    }
    await t.database.db.updateTable('lines').set({ enabled: 0 }).where('id', 'in', ids.filter((_, i) => i % 3 === 1)).execute();
  });
  afterAll(() => t.close());

  async function everyPage(token: string, query: string): Promise<Row[]> {
    const rows: Row[] = [];
    for (let page = 1; page < 20; page++) {
      const res = await t.call(token, { method: 'GET', url: `/api/users?${query}&per=10&page=${page}` });
      expect(res.statusCode, query).toBe(200);
      const data = res.json().data as Row[];
      if (data.length === 0) return rows;
      rows.push(...data);
    }
    throw new Error('more pages than lines');
  }

  it('pages through every line in owner, then id order, both ways, with and without a filter, as the admin and a master', async () => {
    for (const [who, token, expected] of [
      ['admin', admin, 19],
      ['master', top.token, 16],
    ] as const) {
      for (const filter of ['', 'status=0', 'type_user=normal']) {
        const all = await everyPage(token, `${filter}&order_by=id,asc`);
        expect(all.length, `${who} ${filter}`).toBe(filter === 'status=0' ? all.filter((r) => r.enabled === 0).length : expected);
        expect(all.length, `${who} ${filter}`).toBeGreaterThan(3);
        const byOwner = [...all].sort((a, b) => (a.master_username < b.master_username ? -1 : a.master_username > b.master_username ? 1 : a.id - b.id)).map((r) => r.id);
        for (const direction of ['asc', 'desc'] as const) {
          const walked = (await everyPage(token, `${filter}&order_by=master_username,${direction}`)).map((r) => r.id);
          expect(walked, `${who} ${filter} ${direction}`).toEqual(direction === 'asc' ? byOwner : [...byOwner].reverse());
        }
      }
    }
  });
});
