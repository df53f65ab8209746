import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureQueries } from '../src/db/plans.ts';
import { nowSec } from '../src/lib/clock.ts';
import * as lines from '../src/modules/lines/service.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';

const PASS = 'Str0ng-pass!';

describe(`trigger-kept line counters (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let groups: Record<string, number>;
  const reseller = (by: string, username: string, type: 'master' | 'reseller', credits: number) => createSignedInReseller(t, by, { username, password: PASS, type, credits, groups });
  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    groups = await groupIds(t, admin);
  });
  afterAll(() => t.close());

  /** Every reseller's lines_count equals a real count of its live lines. */
  async function expectCountersExact() {
    const rows = await sql<{ id: number; lines_count: number; real: number }>`
      SELECT r.id, r.lines_count, (SELECT count(*) FROM lines l WHERE l.member_id = r.id AND l.deleted_at IS NULL) AS real
      FROM resellers r`.execute(t.database.db);
    for (const r of rows.rows) expect(Number(r.lines_count), `reseller ${r.id}`).toBe(Number(r.real));
    await expectTopExact();
  }

  /** Every line's top_reseller_id is its owner's ancestor right under the root (migration 019). */
  async function expectTopExact() {
    const top = (col: string) =>
      sql.raw(`coalesce((SELECT t.ancestor_id FROM reseller_tree t WHERE t.descendant_id = ${col}
        AND t.depth = (SELECT max(m.depth) FROM reseller_tree m WHERE m.descendant_id = ${col}) - 1), ${col})`);
    const rows = await sql<{ id: number; top: number | null; want: number }>`
      SELECT l.id, l.top_reseller_id AS top, ${top('l.member_id')} AS want FROM lines l`.execute(t.database.db);
    for (const r of rows.rows) expect(r.top, `line ${r.id}`).toBe(Number(r.want));
    const logs = await sql<{ id: number; top: number | null; want: number | null; ttop: number | null; twant: number | null }>`
      SELECT g.id, g.top_reseller_id AS top, ${top('g.reseller_id')} AS want, g.target_top_reseller_id AS ttop, ${top('g.target_reseller_id')} AS twant
      FROM logs g`.execute(t.database.db);
    for (const r of logs.rows) {
      expect(r.top, `log ${r.id}`).toBe(r.want === null ? null : Number(r.want));
      expect(r.ttop, `log ${r.id} target`).toBe(r.twant === null ? null : Number(r.twant));
    }
  }

  it('stay exact through creations, deletions and a deactivation that moves lines', async () => {
    const pkg = { id: await createPackage(t, admin, 'P', await createBouquet(t, admin, 'B')) };
    const a = await reseller(admin, 'cnt_a', 'master', 20);
    const b = await reseller(admin, 'cnt_b', 'master', 20);
    const at = a.token;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createLine(t, at, { package_id: pkg.id })).id);
    await expectCountersExact();
    await t.call(at, { method: 'DELETE', url: `/api/users/${ids[0]}` });
    const list = (await t.call(at, { method: 'GET', url: '/api/users' })).json();
    expect(list.meta.total).toBe(4);
    await expectCountersExact();
    await t.call(admin, { method: 'DELETE', url: `/api/resellers/${a.id}`, payload: { reseller_id: a.id, type: 'transferall', target_id: b.id } });
    await expectCountersExact();
    const bRow = (await t.call(admin, { method: 'GET', url: `/api/resellers/${b.id}` })).json();
    expect(bRow.clients_count).toBe(4);
    const dash = (await t.call(admin, { method: 'GET', url: '/api/dashboard' })).json();
    expect(dash.users).toBe(4);
  });

  it('a writer that leaves the top columns out gets them from the insert triggers (migrations 019 and 023)', async () => {
    const db = t.database.db;
    const owner = await db.selectFrom('resellers').select('id').where('username', '=', 'cnt_b').executeTakeFirstOrThrow();
    const pkg = await db.selectFrom('packages').select('id').executeTakeFirstOrThrow();
    await db
      .insertInto('lines')
      .values({ member_id: owner.id, username: 'raw_writer_line', password: 'p4ss-raw', package_id: pkg.id, created_at: 1, exp_date: 2, enabled: 1, is_trial: 0, max_connections: 1, bouquet: '[]', system: 1 })
      .execute();
    await db.insertInto('logs').values({ type_log: 'user', action: 'raw', actor_id: owner.id, reseller_id: owner.id, target_reseller_id: owner.id, created_at: 1 }).execute();
    await expectCountersExact();
    const row = await db.selectFrom('lines').select('top_reseller_id').where('username', '=', 'raw_writer_line').executeTakeFirstOrThrow();
    expect(row.top_reseller_id).toBe(owner.id);
  });

  it('the unfiltered list total is kept between changes and follows every change at once (admin, master, owner)', async () => {
    const pkg = (await t.call(admin, { method: 'GET', url: '/api/admin/packages' })).json().data[0];
    const m = (await reseller(admin, 'kept_m', 'master', 30)).token;
    const r = (await reseller(m, 'kept_r', 'reseller', 10)).token;
    const total = async (token: string) => (await t.call(token, { method: 'GET', url: '/api/users' })).json().meta.total as number;
    // a filtered count under the cap is kept the same way (the owner filter: kept_r's lines)
    const owned = async (token: string) => (await t.call(token, { method: 'GET', url: '/api/users?reseller=kept_r' })).json().meta.total as number;
    const before = { admin: await total(admin), m: await total(m), r: await total(r) };
    expect([await owned(admin), await owned(m), await owned(r)]).toEqual([0, 0, 0]);
    // asked twice: the second answer comes from the kept total
    expect(await total(admin)).toBe(before.admin);
    const id = (await t.call(r, { method: 'POST', url: '/api/users', payload: { package_id: pkg.id } })).json().id;
    expect([await total(admin), await total(m), await total(r)]).toEqual([before.admin + 1, before.m + 1, before.r + 1]);
    expect([await owned(admin), await owned(m), await owned(r)]).toEqual([1, 1, 1]);
    await t.call(m, { method: 'POST', url: '/api/users', payload: { package_id: pkg.id } });
    expect([await total(admin), await total(m), await total(r)]).toEqual([before.admin + 2, before.m + 2, before.r + 1]);
    expect((await t.call(r, { method: 'DELETE', url: `/api/users/${id}` })).statusCode).toBe(204);
    expect([await total(admin), await total(m), await total(r)]).toEqual([before.admin + 1, before.m + 1, before.r]);
    expect([await owned(admin), await owned(m), await owned(r)]).toEqual([0, 0, 0]);
  });

  it('a nested master lists its own subtree, its top master the whole one (top_reseller_id)', async () => {
    const pkg = (await t.call(admin, { method: 'GET', url: '/api/admin/packages' })).json().data[0];
    const m = (await reseller(admin, 'top_m', 'master', 50)).token;
    const sub = await reseller(m, 'top_sub', 'reseller', 20);
    expect((await t.call(m, { method: 'POST', url: `/api/resellers/${sub.id}/to_master` })).statusCode).toBe(200);
    const s = await t.login('top_sub', PASS);
    const leaf = await reseller(s, 'top_leaf', 'reseller', 5);
    const l = leaf.token;
    const mine = (await t.call(m, { method: 'POST', url: '/api/users', payload: { package_id: pkg.id } })).json().id;
    const subs = (await t.call(s, { method: 'POST', url: '/api/users', payload: { package_id: pkg.id } })).json().id;
    const leafs = (await t.call(l, { method: 'POST', url: '/api/users', payload: { package_id: pkg.id } })).json().id;
    await expectTopExact();
    const ids = async (token: string, query = '') => (await t.call(token, { method: 'GET', url: `/api/users${query}` })).json().data.map((r: { id: number }) => r.id);
    expect(await ids(m)).toEqual([leafs, subs, mine]);
    expect(await ids(m, '?page=2&per=10')).toEqual([]);
    expect(await ids(s)).toEqual([leafs, subs]);
    expect(await ids(l)).toEqual([leafs]);
    expect((await t.call(m, { method: 'GET', url: '/api/users?status=1' })).json().meta.total).toBe(3);
    // The nested master's leaf is deactivated: its line moves up to the nested master, same top.
    await t.call(admin, { method: 'DELETE', url: `/api/resellers/${leaf.id}`, payload: { reseller_id: leaf.id, type: 'transferall', target_id: sub.id } });
    await expectTopExact();
    expect(await ids(m)).toEqual([leafs, subs, mine]);
    expect(await ids(s)).toEqual([leafs, subs]);
  });
});

describe(`count cap on filtered lists (${ENGINE})`, () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('a broad filter reports 10,000 and capped, a broad text search 1,000; the unfiltered total stays exact', async () => {
    const admin = await t.login('admin');
    const now = nowSec();
    const rows = Array.from({ length: 10_050 }, (_, i) => ({
      member_id: 1,
      username: `cap${i}`,
      password: 'secret1',
      exp_date: now + 86_400,
      created_at: now,
      enabled: 1,
      is_trial: 0,
      max_connections: 1,
      bouquet: '[]',
      system: 1,
    }));
    for (let i = 0; i < rows.length; i += 1000) await t.database.db.insertInto('lines').values(rows.slice(i, i + 1000)).execute();
    const filtered = (await t.call(admin, { method: 'GET', url: '/api/users?status=1&per=100' })).json();
    expect(filtered.meta).toMatchObject({ total: 10_000, capped: true, pages: 100, count: 100 });
    // a free-text search stops counting at 1,000 (it reads every candidate row); a narrow one is exact
    const text = (await t.call(admin, { method: 'GET', url: '/api/users?text_search=cap&per=100' })).json();
    expect(text.meta).toMatchObject({ total: 1_000, capped: true, pages: 10, count: 100 });
    const narrowText = (await t.call(admin, { method: 'GET', url: '/api/users?text_search=cap1004' })).json();
    expect(narrowText.meta.total).toBe(11);
    expect(narrowText.meta.capped).toBeUndefined();
    const few = (await t.call(admin, { method: 'GET', url: '/api/users?username=cap10049' })).json();
    expect(few.meta.total).toBe(1);
    expect(few.meta.capped).toBeUndefined();
    const all = (await t.call(admin, { method: 'GET', url: '/api/users' })).json();
    expect(all.meta).toMatchObject({ total: 10_050 });
    expect(all.meta.capped).toBeUndefined();

    // A term common in older lines only: the newest lines lack it, yet it has over 5,000 matches,
    // so PostgreSQL walks instead of gathering every trigram candidate (2 s at 1M lines).
    const newer = rows.slice(0, 2_100).map((r, i) => ({ ...r, username: `new${i}` }));
    for (let i = 0; i < newer.length; i += 1000) await t.database.db.insertInto('lines').values(newer.slice(i, i + 1000)).execute();
    const actor = { id: 1, username: 'admin', type: 'admin' as const, credits: 0, sessionId: 0, twoFactorEnabled: false };
    let answer: Awaited<ReturnType<typeof lines.list>> | undefined;
    const sent = await captureQueries(t.database, async (db) => {
      answer = await lines.list({ ...t.deps, database: { ...t.database, db } }, actor, { text_search: 'cap', per: 100 });
    });
    expect(answer?.meta).toMatchObject({ total: 1_000, capped: true, count: 100 });
    expect(answer?.data.every((l) => l.username.startsWith('cap'))).toBe(true);
    expect(sent.filter((q) => q.sql.includes('any(array(')).map((q) => q.sql)).toEqual([]);

    // The way to a term's rows is kept per caller (10 s): searching it again probes nothing
    // (SQLite's FTS5 count of 5,001 matches cost 2.4 ms a request at 1M lines, more than the page;
    // PostgreSQL's newest-lines probe and trigram count).
    // (kept per database handle: both searches on the one capturing handle)
    const twice = await captureQueries(t.database, async (db) => {
      const deps = { ...t.deps, database: { ...t.database, db } };
      await lines.list(deps, actor, { text_search: 'cap', per: 100 });
      await sql`select 'second search' as marker`.execute(db);
      answer = await lines.list(deps, actor, { text_search: 'cap', per: 100, page: 2 });
    });
    expect(answer?.meta).toMatchObject({ total: 1_000, capped: true, count: 100 });
    expect(answer?.data.every((l) => l.username.startsWith('cap'))).toBe(true);
    const marker = twice.findIndex((q) => q.sql.includes('second search'));
    const isProbe = (q: { sql: string }) => /from lines_search where|from lines m |\) as "w"/.test(q.sql);
    expect(twice.slice(0, marker).filter(isProbe).length, 'the first search chose its way').toBeGreaterThan(0);
    expect(twice.slice(marker).filter(isProbe).map((q) => q.sql)).toEqual([]);
  });
});
