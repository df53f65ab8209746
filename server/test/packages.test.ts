import { nowMs } from '../src/lib/clock.ts';
import { PACKAGE_DEFAULTS } from './fixtures.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { Bouquet } from '../../web/src/api/types.ts';

const PKG = '/api/admin/packages';
const BQ = '/api/admin/bouquets';

function packageBody(name: string, bouquets: string[], extra: Record<string, unknown> = {}) {
  return {
    ...PACKAGE_DEFAULTS,
    package_name: name,
    bouquets,
    ...extra,
  };
}

describe(`packages and bouquets (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let b1: number;
  let b2: number;
  let b3: number;

  /** Everything a failed call must leave untouched. */
  async function snapshot() {
    const db = t.database.db;
    const [packages, bouquets, logs] = await Promise.all([
      db.selectFrom('packages').selectAll().orderBy('id').execute(),
      db.selectFrom('bouquets').selectAll().orderBy('id').execute(),
      db.selectFrom('logs').select('id').where('type_log', '=', 'admin').execute(),
    ]);
    return { packages, bouquets, logs: logs.length };
  }

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    const ids: number[] = [];
    for (const name of ['Sports', 'Movies', 'Kids']) {
      const res = await t.call(admin, { method: 'POST', url: BQ, payload: { bouquet_name: name } });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    [b1, b2, b3] = ids;
  });
  afterAll(() => t?.close());

  describe('bouquets', () => {
    it('creates (trimmed), lists in id order and logs', async () => {
      const res = await t.call(admin, { method: 'POST', url: BQ, payload: { bouquet_name: '  News  ' } });
      expect(res.statusCode).toBe(201);
      const created = res.json();
      expect(created).toEqual({ id: expect.any(Number), bouquet_name: 'News' });
      const list = await t.call(admin, { method: 'GET', url: BQ });
      expect(list.statusCode).toBe(200);
      const data = list.json().data as Bouquet[];
      expect(data.map((b) => b.bouquet_name)).toEqual(['Sports', 'Movies', 'Kids', 'News']);
      expect(data.map((b) => b.id)).toEqual([...data.map((b) => b.id)].sort((a, b) => a - b));
      const row = await t.database.db.selectFrom('bouquets').selectAll().where('id', '=', created.id).executeTakeFirst();
      expect(row?.bouquet_name).toBe('News');
      const log = await t.database.db.selectFrom('logs').selectAll().where('action', '=', 'bouquet_create').execute();
      expect(log.map((l) => l.value)).toContain('News');
    });

    it('updates and deletes an existing bouquet', async () => {
      const created = (await t.call(admin, { method: 'POST', url: BQ, payload: { bouquet_name: 'Temp' } })).json();
      const upd = await t.call(admin, { method: 'PUT', url: `${BQ}/${created.id}`, payload: { bouquet_name: 'Temp 2' } });
      expect(upd.statusCode).toBe(200);
      expect(upd.json()).toEqual({ id: created.id, bouquet_name: 'Temp 2', categories: [], streams: [] });
      const stored = await t.database.db.selectFrom('bouquets').select('bouquet_name').where('id', '=', created.id).executeTakeFirst();
      expect(stored?.bouquet_name).toBe('Temp 2');
      const del = await t.call(admin, { method: 'DELETE', url: `${BQ}/${created.id}` });
      expect(del.statusCode).toBe(204);
      expect(del.body).toBe('');
      const gone = await t.database.db.selectFrom('bouquets').select('id').where('id', '=', created.id).executeTakeFirst();
      expect(gone).toBeUndefined();
      // deleting twice is a 404
      const again = await t.call(admin, { method: 'DELETE', url: `${BQ}/${created.id}` });
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('NOT_FOUND');
    });

    it('answers 404 NOT_FOUND for update and delete of an unknown id and changes nothing', async () => {
      const before = await snapshot();
      const upd = await t.call(admin, { method: 'PUT', url: `${BQ}/999999`, payload: { bouquet_name: 'Ghost' } });
      expect(upd.statusCode).toBe(404);
      expect(upd.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      const del = await t.call(admin, { method: 'DELETE', url: `${BQ}/999999` });
      expect(del.statusCode).toBe(404);
      expect(del.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      expect(await snapshot()).toEqual(before);
    });

    it('rejects empty, blank and too long bouquet names', async () => {
      const before = await snapshot();
      for (const bouquet_name of ['', 'x'.repeat(101)]) {
        const res = await t.call(admin, { method: 'POST', url: BQ, payload: { bouquet_name } });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'bouquet_name' });
      }
      const missing = await t.call(admin, { method: 'PUT', url: `${BQ}/${b1}`, payload: {} });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ code: 'VALIDATION', field: 'bouquet_name' });
      expect(await snapshot()).toEqual(before);
    });

    it('rejects a whitespace-only bouquet name (it would be stored empty after trim)', async () => {
      const before = await snapshot();
      const res = await t.call(admin, { method: 'POST', url: BQ, payload: { bouquet_name: '   ' } });
      if (res.statusCode === 201) await t.database.db.deleteFrom('bouquets').where('id', '=', res.json().id).execute();
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'bouquet_name' });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('packages', () => {
    let firstId: number;

    it('creates a package, stores it and returns bouquets as an array of id strings', async () => {
      const res = await t.call(admin, {
        method: 'POST',
        url: PKG,
        payload: packageBody('  Basic  ', [String(b2), String(b1), String(b2)], { max_connections: 2, is_trial: 1 }),
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      firstId = body.id;
      expect(body).toEqual({
        id: expect.any(Number),
        package_name: 'Basic',
        is_trial: 1,
        is_official: 1,
        max_connections: 2,
        official_credits: 1,
        official_duration: 1,
        official_duration_in: 'months',
        trial_credits: 0,
        trial_duration: 24,
        trial_duration_in: 'hours',
        bouquets: [String(b2), String(b1)],
      });
      const row = await t.database.db.selectFrom('packages').selectAll().where('id', '=', firstId).executeTakeFirstOrThrow();
      expect(row.package_name).toBe('Basic');
      expect(row.max_connections).toBe(2);
      expect(JSON.parse(row.bouquets)).toEqual([String(b2), String(b1)]);
      const log = await t.database.db.selectFrom('logs').selectAll().where('action', '=', 'package_create').execute();
      expect(log.map((l) => l.value_int)).toContain(firstId);
    });

    it('gets one package by id', async () => {
      const res = await t.call(admin, { method: 'GET', url: `${PKG}/${firstId}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: firstId, package_name: 'Basic', bouquets: [String(b2), String(b1)] });
    });

    it('answers 404 NOT_FOUND for an unknown package id on GET and PUT, and changes nothing', async () => {
      const before = await snapshot();
      const get = await t.call(admin, { method: 'GET', url: `${PKG}/999999` });
      expect(get.statusCode).toBe(404);
      expect(get.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      const max = await t.call(admin, { method: 'GET', url: `${PKG}/2147483647` });
      expect(max.statusCode).toBe(404);
      const put = await t.call(admin, { method: 'PUT', url: `${PKG}/999999`, payload: { package_name: 'X', bouquets: [String(b1)] } });
      expect(put.statusCode).toBe(404);
      expect(put.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      expect(await snapshot()).toEqual(before);
    });

    it('updates name and bouquets, keeps fields not sent, and logs', async () => {
      const res = await t.call(admin, {
        method: 'PUT',
        url: `${PKG}/${firstId}`,
        payload: { package_name: 'Basic Plus', bouquets: [String(b3)], official_credits: 3 },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: firstId,
        package_name: 'Basic Plus',
        bouquets: [String(b3)],
        official_credits: 3,
        max_connections: 2,
        is_trial: 1,
        official_duration_in: 'months',
      });
      const row = await t.database.db.selectFrom('packages').selectAll().where('id', '=', firstId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ package_name: 'Basic Plus', official_credits: 3, max_connections: 2, is_trial: 1 });
      expect(JSON.parse(row.bouquets)).toEqual([String(b3)]);
      const log = await t.database.db.selectFrom('logs').selectAll().where('action', '=', 'package_update').execute();
      expect(log.map((l) => l.value_int)).toContain(firstId);
    });

    it('PUT with bouquets [] is 400 and changes nothing', async () => {
      const before = await snapshot();
      const res = await t.call(admin, { method: 'PUT', url: `${PKG}/${firstId}`, payload: { package_name: 'Changed', bouquets: [] } });
      expect(res.statusCode).toBe(400);
      expect(['BOUQUET_REQUIRED', 'VALIDATION']).toContain(res.json().code);
      expect(res.json().field).toBe('bouquets');
      expect(await snapshot()).toEqual(before);
    });

    it('PUT or POST with an unknown bouquet id is 400 and changes nothing', async () => {
      const before = await snapshot();
      const put = await t.call(admin, {
        method: 'PUT',
        url: `${PKG}/${firstId}`,
        payload: { package_name: 'Changed', bouquets: [String(b1), '999999'] },
      });
      expect(put.statusCode).toBe(400);
      expect(put.json()).toMatchObject({ code: 'VALIDATION', field: 'bouquets' });
      const post = await t.call(admin, { method: 'POST', url: PKG, payload: packageBody('Ghost', ['999999']) });
      expect(post.statusCode).toBe(400);
      expect(post.json()).toMatchObject({ code: 'VALIDATION', field: 'bouquets' });
      for (const bad of ['0', '-1', '1.5', 'abc', '']) {
        const res = await t.call(admin, { method: 'POST', url: PKG, payload: packageBody('Ghost', [bad]) });
        expect(res.statusCode, `bouquet id ${JSON.stringify(bad)}`).toBe(400);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('rejects a bouquet id beyond the integer range with 400, not 500', async () => {
      const before = await snapshot();
      const res = await t.call(admin, { method: 'POST', url: PKG, payload: packageBody('Huge', ['99999999999']) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'bouquets' });
      expect(await snapshot()).toEqual(before);
    });

    it('stores bouquet ids in canonical form (no "01", " 1" or "1.0" aliases of an existing id)', async () => {
      const outcomes: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const alias of [`0${b1}`, ` ${b1}`, `${b1}.0`]) {
        const before = await snapshot();
        const res = await t.call(admin, { method: 'POST', url: PKG, payload: packageBody('Alias', [alias]) });
        if (res.statusCode === 201) {
          await t.database.db.deleteFrom('packages').where('id', '=', res.json().id).execute();
          outcomes[alias] = res.json().bouquets;
          expected[alias] = [String(b1)];
        } else {
          // rejecting the alias is fine too, as long as it is a clean 400 that changed nothing
          outcomes[alias] = { status: res.statusCode, unchanged: JSON.stringify(await snapshot()) === JSON.stringify(before) };
          expected[alias] = { status: 400, unchanged: true };
        }
      }
      expect(outcomes).toEqual(expected);
    });

    it('rejects a whitespace-only package name (it would be stored empty after trim)', async () => {
      const before = await snapshot();
      const res = await t.call(admin, { method: 'POST', url: PKG, payload: packageBody('   ', [String(b1)]) });
      if (res.statusCode === 201) await t.database.db.deleteFrom('packages').where('id', '=', res.json().id).execute();
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'package_name' });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('paging and ordering', () => {
    let allIds: number[];

    beforeAll(async () => {
      // Start from exactly 25 packages with varied flags; lower-case ASCII names sort the same on both engines.
      await t.database.db.deleteFrom('packages').execute();
      const letters = 'qwertyuiopasdfghjklzxcvbn'; // 25 distinct letters, not in order
      for (let i = 0; i < 25; i++) {
        const res = await t.call(admin, {
          method: 'POST',
          url: PKG,
          payload: packageBody(`${letters[i]}pkg${String(i).padStart(2, '0')}`, [String(b1)], {
            is_trial: i % 3 === 0 ? 1 : 0,
            is_official: i % 4 === 0 ? 0 : 1,
          }),
        });
        expect(res.statusCode).toBe(201);
      }
      allIds = (await t.database.db.selectFrom('packages').select('id').orderBy('id').execute()).map((r) => r.id);
      expect(allIds).toHaveLength(25);
    });

    it('defaults to page 1, per 10, ordered by id asc', async () => {
      const res = await t.call(admin, { method: 'GET', url: PKG });
      expect(res.statusCode).toBe(200);
      const { data, meta } = res.json();
      expect(meta).toEqual({ page: 1, per: 10, count: 10, pages: 3, total: 25, next: expect.any(String) });
      expect(data.map((p: { id: number }) => p.id)).toEqual(allIds.slice(0, 10));
      expect(Array.isArray(data[0].bouquets)).toBe(true);
    });

    it('reports correct meta on the last partial page (per=10, page=3)', async () => {
      const res = await t.call(admin, { method: 'GET', url: PKG, query: { per: '10', page: '3' } });
      expect(res.statusCode).toBe(200);
      const { data, meta } = res.json();
      expect(meta).toEqual({ page: 3, per: 10, count: 5, pages: 3, total: 25, prev: expect.any(String) });
      expect(data.map((p: { id: number }) => p.id)).toEqual(allIds.slice(20));
    });

    it('reports correct meta with per=20 page 2 and past the end', async () => {
      const p2 = (await t.call(admin, { method: 'GET', url: `${PKG}?per=20&page=2` })).json();
      expect(p2.meta).toEqual({ page: 2, per: 20, count: 5, pages: 2, total: 25, prev: expect.any(String) });
      const past = await t.call(admin, { method: 'GET', url: `${PKG}?per=10&page=4` });
      expect(past.statusCode).toBe(200);
      expect(past.json()).toEqual({ data: [], meta: { page: 4, per: 10, count: 0, pages: 3, total: 25 } });
      const all = (await t.call(admin, { method: 'GET', url: `${PKG}?per=100` })).json();
      expect(all.meta).toEqual({ page: 1, per: 100, count: 25, pages: 1, total: 25 });
    });

    const fields = ['id', 'package_name', 'is_trial', 'is_official'] as const;
    for (const field of fields) {
      for (const dir of ['asc', 'desc'] as const) {
        it(`order_by=${field},${dir} really sorts, across pages without gaps or repeats`, async () => {
          const rows: Record<string, unknown>[] = [];
          for (let page = 1; page <= 3; page++) {
            const res = await t.call(admin, { method: 'GET', url: `${PKG}?per=10&page=${page}&order_by=${field},${dir}` });
            expect(res.statusCode).toBe(200);
            rows.push(...res.json().data);
          }
          const ids = rows.map((r) => r.id as number);
          expect([...ids].sort((a, b) => a - b)).toEqual(allIds);
          const values = rows.map((r) => r[field] as string | number);
          const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          if (dir === 'desc') sorted.reverse();
          expect(values).toEqual(sorted);
          // the data set must make the check meaningful: distinct values, and id order is not already sorted this way
          expect(new Set(values).size).toBeGreaterThan(1);
          if (field !== 'id') expect(ids).not.toEqual(allIds);
        });
      }
    }

    it('order_by without a direction means asc', async () => {
      const res = await t.call(admin, { method: 'GET', url: `${PKG}?per=100&order_by=package_name` });
      const names = res.json().data.map((p: { package_name: string }) => p.package_name);
      expect(names).toEqual([...names].sort());
      expect(names[0]).toBe('apkg10');
    });

    it('rejects unknown order_by fields and directions with 400 VALIDATION field order_by', async () => {
      for (const order_by of ['unknown,asc', 'id,sideways', 'bouquets,asc', 'id;drop table packages', 'id,']) {
        const res = await t.call(admin, { method: 'GET', url: PKG, query: { order_by } });
        expect(res.statusCode, order_by).toBe(400);
        expect(res.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION', field: 'order_by' });
      }
      const n = await t.database.db.selectFrom('packages').select('id').execute();
      expect(n).toHaveLength(25);
    });

    it('rejects per values outside the allowed set and page < 1', async () => {
      for (const [query, field] of [
        ['per=7', 'per'],
        ['per=0', 'per'],
        ['per=1000', 'per'],
        ['per=abc', 'per'],
        ['page=0', 'page'],
        ['page=-1', 'page'],
        ['page=1.5', 'page'],
        ['page=abc', 'page'],
        ['page=1000001', 'page'],
      ]) {
        const res = await t.call(admin, { method: 'GET', url: `${PKG}?${query}` });
        expect(res.statusCode, query).toBe(400);
        expect(res.json(), query).toMatchObject({ statusCode: 400, code: 'VALIDATION', field });
      }
    });
  });

  describe('GET /api/datacomplements', () => {
    it('returns groups, settings, packages, bouquets, the server time and whether P2P is configured', async () => {
      const res = await t.call(admin, { method: 'GET', url: '/api/datacomplements' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['bouquets', 'groups', 'p2p_configured', 'packages', 'public_url', 'server_time', 'settings']);
      expect(body.p2p_configured).toBe(false); // P2P_API_URL unset here (p2p-not-configured.test.ts has both)
      expect(body.groups.map((g: { type: string }) => g.type).sort()).toEqual(['admin', 'master', 'reseller']);
      for (const g of body.groups) expect(g).toEqual({ group_id: expect.any(Number), group_name: expect.any(String), type: expect.any(String) });
      expect(body.settings).toMatchObject({ master_min_credit_create: '1', user_limit_screen: '1' });
      for (const v of Object.values(body.settings)) expect(typeof v).toBe('string');
      const dbPackages = await t.database.db.selectFrom('packages').select('id').orderBy('id').execute();
      expect(body.packages.map((p: { id: number }) => p.id)).toEqual(dbPackages.map((p) => p.id));
      expect(body.packages.length).toBe(25);
      expect(Array.isArray(body.packages[0].bouquets)).toBe(true);
      expect(body.packages[0].bouquets).toEqual([String(b1)]);
      const dbBouquets = await t.database.db.selectFrom('bouquets').selectAll().orderBy('id').execute();
      expect(body.bouquets).toEqual(dbBouquets);
      expect(Number.isInteger(body.server_time)).toBe(true);
      expect(Math.abs(body.server_time - nowMs() / 1000)).toBeLessThan(5);
    });

    it('reflects a changed setting', async () => {
      await t.database.db.updateTable('settings').set({ value: '7' }).where('key', '=', 'user_limit_screen').execute();
      try {
        const body = (await t.call(admin, { method: 'GET', url: '/api/datacomplements' })).json();
        expect(body.settings.user_limit_screen).toBe('7');
      } finally {
        await t.database.db.updateTable('settings').set({ value: '1' }).where('key', '=', 'user_limit_screen').execute();
      }
    });
  });
});
