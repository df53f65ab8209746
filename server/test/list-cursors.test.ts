// Paging by cursor (db/paginate.ts): following `meta.next` forward, or `meta.prev` back from the
// last page, must give exactly the rows the page numbers give, in the same order: ties in the sort
// column, NULLs (a reseller's last sign-in), both directions, filters, a master's scope, the owner
// walk. A count cap of 20 puts the broad lists on their walking path (more matches than the cap)
// and keeps the narrow ones exact, so pages nearer the end are read from the end.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LIST_COUNT_CAP = '20';
});
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, createLine, createSignedInReseller } from './fixtures.ts';

const PASS = 'Str0ng-pass!';

interface Page {
  data: { id: number }[];
  meta: { page: number; pages: number; total: number; capped?: boolean; next?: string; prev?: string };
}

describe(`lists paged by cursor (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let top: { id: number; token: string };
  let pkg: number;

  beforeAll(async () => {
    t = await createTestContext();
    const made = await adminWithPackage(t);
    admin = made.admin;
    pkg = made.pkg;
    const reseller = (by: string, username: string, type: 'master' | 'reseller', credits: number) =>
      createSignedInReseller(t, by, { username, password: PASS, type, credits, groups: made.groups });
    top = await reseller(admin, 'cur_top', 'master', 500);
    const other = await reseller(admin, 'cur_other', 'master', 200);
    const owners = [top, await reseller(top.token, 'cur_c', 'reseller', 50), await reseller(top.token, 'cur_a', 'reseller', 50), other];
    for (let i = 0; i < 28; i++) await reseller(admin, `cur_r${String(i).padStart(2, '0')}`, 'reseller', i % 3);
    const ids: number[] = [];
    for (const [i, owner] of owners.entries()) {
      for (let k = 0; k < (i === 0 ? 15 : 9 + i); k++) ids.push((await createLine(t, owner.token, { package_id: pkg })).id);
    }
    const db = t.database.db;
    // ties: four expiry days, three creation seconds; some lines disabled
    for (const [i, id] of ids.entries()) {
      await db
        .updateTable('lines')
        .set({ exp_date: 2_000_000_000 + (i % 4) * 86_400, created_at: 1_700_000_000 + (i % 3), enabled: i % 3 === 1 ? 0 : 1 })
        .where('id', '=', id)
        .execute();
    }
    // resellers' last sign-in: NULL for some, ties for others
    const all = await db.selectFrom('resellers').select('id').orderBy('id').execute();
    for (const [i, r] of all.entries()) await db.updateTable('resellers').set({ last_login: i % 3 === 0 ? null : 1_700_000_000 + (i % 4) }).where('id', '=', r.id).execute();
  });
  afterAll(() => t.close());

  async function get(token: string, url: string): Promise<Page> {
    const res = await t.call(token, { method: 'GET', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as Page;
  }
  const sep = (path: string) => (path.includes('?') ? '&' : '?');

  /** Every page by number, until an empty one. */
  async function byNumber(token: string, path: string): Promise<number[][]> {
    const pages: number[][] = [];
    for (let page = 1; page < 30; page++) {
      const res = await get(token, `${path}${sep(path)}per=10&page=${page}`);
      if (res.data.length === 0) return pages;
      pages.push(res.data.map((r) => r.id));
    }
    throw new Error('more pages than rows');
  }

  /** Page 1, then each next page from the previous one's `meta.next`. */
  async function forward(token: string, path: string): Promise<number[][]> {
    const pages: number[][] = [];
    let res = await get(token, `${path}${sep(path)}per=10&page=1`);
    for (let page = 2; res.data.length > 0; page++) {
      pages.push(res.data.map((r) => r.id));
      if (!res.meta.next) break;
      res = await get(token, `${path}${sep(path)}per=10&page=${page}&after=${res.meta.next}`);
    }
    return pages;
  }

  /** Page `last`, then each page before it from the following one's `meta.prev`. */
  async function backward(token: string, path: string, last: number): Promise<number[][]> {
    const pages: number[][] = [];
    let res = await get(token, `${path}${sep(path)}per=10&page=${last}`);
    for (let page = last - 1; ; page--) {
      pages.unshift(res.data.map((r) => r.id));
      if (page === 0) break;
      expect(res.meta.prev, `${path} page ${page + 1}`).toBeTruthy();
      res = await get(token, `${path}${sep(path)}per=10&page=${page}&before=${res.meta.prev}`);
    }
    expect(res.meta.prev).toBeUndefined();
    return pages;
  }

  async function samePages(token: string, path: string) {
    const numbered = await byNumber(token, path);
    expect(numbered.length, path).toBeGreaterThan(1);
    expect(new Set(numbered.flat()).size, `${path}: no row twice`).toBe(numbered.flat().length);
    expect(await forward(token, path), `${path} forward`).toEqual(numbered);
    expect(await backward(token, path, numbered.length), `${path} backward`).toEqual(numbered);
    // a neighbouring page two ahead of the cursor's, and two behind
    const page1 = await get(token, `${path}${sep(path)}per=10&page=1`);
    if (numbered.length >= 3) {
      const third = await get(token, `${path}${sep(path)}per=10&page=3&after=${page1.meta.next}`);
      expect(third.data.map((r) => r.id), `${path} page 3 from page 1`).toEqual(numbered[2]);
      const lastPage = await get(token, `${path}${sep(path)}per=10&page=${numbered.length}`);
      const back2 = await get(token, `${path}${sep(path)}per=10&page=${numbered.length - 2}&before=${lastPage.meta.prev}`);
      expect(back2.data.map((r) => r.id), `${path} two pages back from the last`).toEqual(numbered[numbered.length - 3]);
    }
  }

  it('users: every sort both ways, ties, filters, as the admin and a master', async () => {
    for (const token of [admin, top.token]) {
      for (const filter of ['', 'status=0', 'status=1', 'type_user=normal']) {
        for (const field of ['id', 'username', 'created_at', 'exp_date', 'master_username']) {
          for (const direction of ['asc', 'desc']) await samePages(token, `/api/users?order_by=${field},${direction}${filter ? `&${filter}` : ''}`);
        }
      }
    }
  });

  it('users: one owner (exact count, read from the end), expiring', async () => {
    await samePages(admin, `/api/users?reseller=cur_top&order_by=exp_date,desc`);
    await samePages(admin, '/api/users/expiring?order=asc');
    await samePages(top.token, '/api/users/expiring?order=desc');
  });

  it('resellers: a column with NULLs and ties, both ways; the action log by action', async () => {
    for (const direction of ['asc', 'desc']) {
      await samePages(admin, `/api/resellers?order_by=last_login,${direction}`);
      await samePages(admin, `/api/resellers?order_by=credits,${direction}`);
      await samePages(admin, `/api/resellers?order_by=master_username,${direction}`);
      await samePages(admin, `/api/resellers?order_by=group_name,${direction}`);
    }
    await samePages(admin, '/api/logs?actions=user_create');
    await samePages(admin, '/api/logs?actions=user_create&order_by=id,asc');
    await samePages(top.token, '/api/logs');
  });

  it('a cursor serves pages up to a few away, across the NULLs, both ways', async () => {
    for (const direction of ['asc', 'desc']) {
      const path = `/api/resellers?order_by=last_login,${direction}`;
      const numbered = await byNumber(admin, path);
      expect(numbered.length).toBeGreaterThanOrEqual(4);
      const shown = await Promise.all(numbered.map((_, i) => get(admin, `${path}&per=10&page=${i + 1}`)));
      for (let k = 1; k <= numbered.length; k++) {
        for (let p = 1; p <= numbered.length; p++) {
          if (p > k && p - k <= 3) expect((await get(admin, `${path}&per=10&page=${p}&after=${shown[k - 1].meta.next}`)).data.map((r) => r.id), `${direction} ${p} after ${k}`).toEqual(numbered[p - 1]);
          if (p < k && k - p <= 3) expect((await get(admin, `${path}&per=10&page=${p}&before=${shown[k - 1].meta.prev}`)).data.map((r) => r.id), `${direction} ${p} before ${k}`).toEqual(numbered[p - 1]);
        }
      }
    }
  });

  it('a cursor is a position: rows added ahead of it do not shift the next page', async () => {
    const path = '/api/users?order_by=id,desc';
    const before = await byNumber(admin, path);
    const page1 = await get(admin, `${path}&per=10&page=1`);
    await createLine(t, top.token, { package_id: pkg });
    const page2 = await get(admin, `${path}&per=10&page=2&after=${page1.meta.next}`);
    expect(page2.data.map((r) => r.id)).toEqual(before[1]);
    const shifted = await get(admin, `${path}&per=10&page=2`);
    expect(shifted.data.map((r) => r.id)).not.toEqual(before[1]);
  });

  it('a forged cursor, or one made for another order or other filters, is ignored: the page comes by its number', async () => {
    const path = '/api/users?order_by=exp_date,asc';
    const page1 = await get(admin, `${path}&per=10&page=1`);
    const page2 = (await get(admin, `${path}&per=10&page=2`)).data.map((r) => r.id);
    const other = await get(admin, '/api/users?order_by=username,asc&per=10&page=1');
    const filtered = await get(admin, `${path}&status=0&per=10&page=1`);
    const forged = Buffer.from(JSON.stringify(['a', 'x', 10, 'not a number', 1])).toString('base64url');
    const wrongType = (() => {
      const body = JSON.parse(Buffer.from(page1.meta.next as string, 'base64url').toString());
      body[3] = 'text where a number is';
      return Buffer.from(JSON.stringify(body)).toString('base64url');
    })();
    for (const cursor of ['nonsense', forged, other.meta.next, filtered.meta.next, page1.meta.prev ?? 'x']) {
      const res = await get(admin, `${path}&per=10&page=2&after=${cursor}`);
      expect(res.data.map((r) => r.id), String(cursor)).toEqual(page2);
    }
    // a value its column cannot be compared with: PostgreSQL refuses it (the page comes by its
    // number), SQLite sorts text after every number (past the end); neither fails
    const odd = await get(admin, `${path}&per=10&page=2&after=${wrongType}`);
    expect([page2, []]).toContainEqual(odd.data.map((r) => r.id));
    // an after-cursor sent as before, or a page on the wrong side of the cursor
    expect((await get(admin, `${path}&per=10&page=1&before=${page1.meta.next}`)).data).toEqual(page1.data);
    expect((await get(admin, `${path}&per=10&page=1&after=${page1.meta.next}`)).data).toEqual(page1.data);
  });

  it('answers the cursors: none ahead of page 1, none past the last page', async () => {
    const pages = await byNumber(admin, '/api/users');
    const first = await get(admin, '/api/users?per=10&page=1');
    expect(first.meta.prev).toBeUndefined();
    expect(first.meta.next).toBeTruthy();
    const last = await get(admin, `/api/users?per=10&page=${pages.length}`);
    expect(last.meta.next).toBeUndefined();
    expect(last.meta.prev).toBeTruthy();
  });
});
