import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { createReseller } from './fixtures.ts';
import type { Reseller, ResellerPage } from '../../web/src/api/types.ts';

// Bad input on every reseller route (4xx, never 5xx, nothing changes), the master's balance
// check on create, and the list's paging, ordering and filters.
//
// Fixture (created once; usernames are lowercase letters and digits only so that string
// ordering is the same under SQLite's binary collation and PostgreSQL's locale collation):
//   admin ─┬─ hotel3 (reseller, blocked)
//          ├─ ordm1 (master) ── zeta1, alpha2 (blocked), recordo, mike4, bravo5, echo8
//          └─ ordm2 (master) ── yank6 (blocked), kilo7

const PASS = 'Input-pass-2024';
const LONG = 'x'.repeat(10_000);

describe(`reseller input validation, paging, ordering and filters (${ENGINE})`, () => {
  let t: TestContext;
  const groups: Record<string, number> = {};
  const id: Record<string, number> = {};
  const tok: Record<string, string> = {};

  const db = () => t.database.db;
  const describeCall = (opts: InjectOptions) => {
    const p = typeof opts.payload === 'string' ? opts.payload : JSON.stringify(opts.payload ?? '');
    const url = String(opts.url);
    return `${opts.method} ${url.length > 120 ? `${url.slice(0, 120)}…` : url} ${p.length > 80 ? `${p.slice(0, 80)}…` : p}`;
  };

  async function create(token: string, username: string, type: 'master' | 'reseller', credits = 0) {
    id[username] = (await createReseller(t, token, { username, password: PASS, type, credits, groups })).id;
  }

  /** What a refused call must leave untouched. */
  async function snapshot() {
    const count = async (table: 'reseller_tree' | 'credit_ledger' | 'idempotency_keys' | 'reseller_domains') =>
      Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return {
      resellers: await db()
        .selectFrom('resellers')
        .select(['id', 'username', 'password_hash', 'credits', 'owner_id', 'member_group_id', 'status', 'deleted_at', 'email', 'whatsapp', 'telegram', 'notes'])
        .orderBy('id')
        .execute(),
      tree: await count('reseller_tree'),
      ledger: await count('credit_ledger'),
      idempotency: await count('idempotency_keys'),
      domains: await count('reseller_domains'),
      logs: await db().selectFrom('logs').select(['id', 'action']).where('type_log', 'in', ['reseller', 'credits']).orderBy('id').execute(),
      revoked: await db().selectFrom('sessions').select('id').where('revoked_at', 'is not', null).orderBy('id').execute(),
    };
  }

  interface Case {
    token: () => string;
    opts: InjectOptions;
    status?: number;
    code?: string;
    field?: string | null; // null: don't check the field
  }

  /** Runs every case, collects every mismatch (so one run reports all of them), and checks nothing changed. */
  async function runCases(cases: Case[]) {
    const before = await snapshot();
    const wrong: string[] = [];
    for (const c of cases) {
      const res = await t.call(c.token(), c.opts);
      const status = c.status ?? 400;
      const code = c.code ?? 'VALIDATION';
      let body: { code?: string; field?: string } = {};
      try {
        body = res.json();
      } catch {
        /* not JSON: reported below */
      }
      const problems: string[] = [];
      if (res.statusCode !== status) problems.push(`status ${res.statusCode} (want ${status})`);
      if (body.code !== code) problems.push(`code ${body.code} (want ${code})`);
      if (c.field !== null && c.field !== undefined && body.field !== c.field) problems.push(`field ${body.field} (want ${c.field})`);
      if (res.statusCode >= 500) problems.push('5xx');
      if (problems.length) wrong.push(`${describeCall(c.opts)} -> ${problems.join(', ')}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  }

  const asAdmin = () => tok.admin;
  const asM1 = () => tok.ordm1;

  async function listAll(token: string, query = ''): Promise<ResellerPage> {
    const res = await t.call(token, { method: 'GET', url: `/api/resellers?per=100${query ? `&${query}` : ''}` });
    expect(res.statusCode, `?${query} -> ${res.body.slice(0, 300)}`).toBe(200);
    return res.json();
  }

  beforeAll(async () => {
    t = await createTestContext();
    tok.admin = await t.login('admin');
    const c = (await t.call(tok.admin, { method: 'GET', url: '/api/datacomplements' })).json();
    for (const g of c.groups) groups[g.type] ??= g.group_id;

    await create(tok.admin, 'hotel3', 'reseller', 7); // first, so that ordering by group is not ordering by id
    await create(tok.admin, 'ordm1', 'master', 60);
    await create(tok.admin, 'ordm2', 'master', 10);
    tok.ordm1 = await t.login('ordm1', PASS);
    tok.ordm2 = await t.login('ordm2', PASS);
    for (const [name, credits] of [
      ['zeta1', 5],
      ['alpha2', 0],
      ['recordo', 12],
      ['mike4', 1],
      ['bravo5', 9],
    ] as const) {
      await create(tok.ordm1, name, 'reseller', credits);
    }
    await create(tok.ordm2, 'yank6', 'reseller', 2);
    await create(tok.ordm2, 'kilo7', 'reseller', 0);
    await create(tok.ordm1, 'echo8', 'reseller', 3);
    for (const [token, target] of [
      [tok.ordm1, 'alpha2'],
      [tok.ordm2, 'yank6'],
      [tok.admin, 'hotel3'],
    ]) {
      const res = await t.call(token, { method: 'POST', url: `/api/resellers/${id[target]}/block` });
      expect(res.statusCode, res.body).toBe(200);
    }
    // distinct, deliberately unordered last-login times (a sign-in would stamp them all within one second)
    for (const [name, at] of [
      ['zeta1', 1_700_000_300],
      ['ordm2', 1_700_000_100],
      ['kilo7', 1_700_000_200],
      ['bravo5', 1_700_000_100],
      ['ordm1', 1_700_000_050],
    ] as const) {
      await db().updateTable('resellers').set({ last_login: at }).where('id', '=', id[name]).execute();
    }
  });
  afterAll(() => t?.close());

  describe('list: paging, ordering and filters', () => {
    const ALL = ['alpha2', 'bravo5', 'echo8', 'hotel3', 'kilo7', 'mike4', 'ordm1', 'ordm2', 'recordo', 'yank6', 'zeta1'];
    const FIELDS = ['id', 'username', 'credits', 'master_username', 'last_login', 'group_name', 'status'] as const;

    const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

    function assertSorted(rows: Reseller[], key: (typeof FIELDS)[number], dir: 'asc' | 'desc') {
      const sign = dir === 'asc' ? 1 : -1;
      const nulls = rows.map((r, i) => (r[key] === null ? i : -1)).filter((i) => i >= 0);
      if (nulls.length) {
        expect(nulls.at(-1)! - nulls[0], `${key}: NULLs are contiguous`).toBe(nulls.length - 1);
        expect(nulls[0] === 0 || nulls.at(-1) === rows.length - 1, `${key}: NULLs at one end`).toBe(true);
      }
      for (let i = 1; i < rows.length; i++) {
        const a = rows[i - 1];
        const b = rows[i];
        if ((a[key] === null) !== (b[key] === null)) continue; // the NULL boundary
        const c = a[key] === null ? 0 : compare(a[key] as string | number, b[key] as string | number) * sign;
        expect(c, `${key},${dir}: ${a.username}(${a[key]}) before ${b.username}(${b[key]})`).toBeLessThanOrEqual(0);
        if (c === 0) expect(compare(a.id, b.id) * sign, `${key},${dir}: tie broken by id`).toBeLessThan(0);
      }
    }

    it('default order is id desc; paging splits the rows without overlap; pages beyond the end are empty', async () => {
      const all = await listAll(tok.admin);
      expect(all.data.map((r) => r.username).sort()).toEqual(ALL);
      expect(all.meta).toEqual({ page: 1, per: 100, count: 11, pages: 1, total: 11 });
      const ids = all.data.map((r) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));

      const p1 = (await t.call(tok.admin, { method: 'GET', url: '/api/resellers?order_by=credits,desc' })).json();
      const p2 = (await t.call(tok.admin, { method: 'GET', url: '/api/resellers?order_by=credits,desc&page=2' })).json();
      const p3 = (await t.call(tok.admin, { method: 'GET', url: '/api/resellers?order_by=credits,desc&page=3' })).json();
      expect(p1.meta).toEqual({ page: 1, per: 10, count: 10, pages: 2, total: 11, next: expect.any(String) });
      expect(p2.meta).toEqual({ page: 2, per: 10, count: 1, pages: 2, total: 11, prev: expect.any(String) });
      expect(p3.data).toEqual([]);
      const whole = (await listAll(tok.admin, 'order_by=credits,desc')).data.map((r) => r.id);
      expect([...p1.data, ...p2.data].map((r: Reseller) => r.id)).toEqual(whole);

      const m1 = await listAll(tok.ordm1);
      expect(m1.data.map((r) => r.username).sort()).toEqual(['alpha2', 'bravo5', 'echo8', 'mike4', 'recordo', 'zeta1']);
      const m1p = (await t.call(tok.ordm1, { method: 'GET', url: '/api/resellers?per=20&page=1' })).json();
      expect(m1p.meta).toMatchObject({ count: 6, total: 6, pages: 1 });
    });

    for (const field of FIELDS) {
      it(`order_by=${field} really sorts, both ways`, async () => {
        const asc = (await listAll(tok.admin, `order_by=${field},asc`)).data;
        const desc = (await listAll(tok.admin, `order_by=${field},desc`)).data;
        const plain = (await listAll(tok.admin, `order_by=${field}`)).data;
        expect(asc).toHaveLength(11);
        assertSorted(asc, field, 'asc');
        assertSorted(desc, field, 'desc');
        expect(desc.map((r) => r.id)).toEqual(asc.map((r) => r.id).reverse());
        expect(plain.map((r) => r.id), 'no direction means asc').toEqual(asc.map((r) => r.id));
        if (field !== 'id') {
          // the fixture really tells this ordering apart from ordering by id
          const byId = [...asc].map((r) => r.id).sort((a, b) => a - b);
          expect(asc.map((r) => r.id)).not.toEqual(byId);
          expect(asc.map((r) => r.id)).not.toEqual([...byId].reverse());
        }
      });
    }

    it('filters id, username (substring, case-insensitive), reseller (owner), group and status work and combine', async () => {
      const all = (await listAll(tok.admin)).data;
      const expectFilter = async (query: string, keep: (r: Reseller) => boolean, token = tok.admin, base = all) => {
        const got = (await listAll(token, query)).data.map((r) => r.username).sort();
        const want = base.filter(keep).map((r) => r.username).sort();
        expect(got, `?${query}`).toEqual(want);
        return got;
      };
      expect(await expectFilter(`id=${id.mike4}`, (r) => r.id === id.mike4)).toEqual(['mike4']);
      expect(await expectFilter('username=ORD', (r) => r.username.includes('ord'))).toEqual(['ordm1', 'ordm2', 'recordo']);
      expect(await expectFilter('username=Ho', (r) => r.username.includes('ho'))).toEqual(['echo8', 'hotel3']);
      // LIKE wildcards are taken literally
      expect(await expectFilter('username=_', () => false)).toEqual([]);
      expect(await expectFilter(`username=${encodeURIComponent('m%1')}`, () => false)).toEqual([]);
      expect(await expectFilter('reseller=ORDM1', (r) => r.master_username === 'ordm1')).toHaveLength(6);
      expect(await expectFilter('reseller=ordm', () => false)).toEqual([]); // owner match is exact, not a substring
      expect(await expectFilter('reseller=admin', (r) => r.master_username === 'admin')).toEqual(['hotel3', 'ordm1', 'ordm2']);
      expect(await expectFilter(`group=${groups.master}`, (r) => r.member_group_id === groups.master)).toEqual(['ordm1', 'ordm2']);
      expect(await expectFilter('status=0', (r) => r.status === 0)).toEqual(['alpha2', 'hotel3', 'yank6']);
      expect(await expectFilter('status=1', (r) => r.status === 1)).toHaveLength(8);
      // combinations
      expect(await expectFilter('reseller=ordm1&status=0', (r) => r.master_username === 'ordm1' && r.status === 0)).toEqual(['alpha2']);
      expect(await expectFilter('reseller=ordm1&username=O', (r) => r.master_username === 'ordm1' && r.username.includes('o'))).toEqual(['bravo5', 'echo8', 'recordo']);
      expect(await expectFilter(`group=${groups.reseller}&status=0`, (r) => r.member_group_id === groups.reseller && r.status === 0)).toEqual(['alpha2', 'hotel3', 'yank6']);
      expect(await expectFilter(`group=${groups.master}&status=0`, () => false)).toEqual([]);
      expect(await expectFilter(`id=${id.zeta1}&reseller=ordm2`, () => false)).toEqual([]);
      expect(await expectFilter(`username=a&status=1&order_by=credits,desc`, (r) => r.username.includes('a') && r.status === 1)).toEqual(['bravo5', 'zeta1']);
      // filters inside a master's scope
      const m1rows = (await listAll(tok.ordm1)).data;
      expect(await expectFilter('status=0', (r) => r.status === 0, tok.ordm1, m1rows)).toEqual(['alpha2']);
      expect(await expectFilter('username=o', (r) => r.username.includes('o'), tok.ordm1, m1rows)).toEqual(['bravo5', 'echo8', 'recordo']);
      // paging meta follows the filter
      const filtered = (await t.call(tok.admin, { method: 'GET', url: '/api/resellers?status=1&per=10&page=1' })).json();
      expect(filtered.meta).toMatchObject({ total: 8, pages: 1, count: 8 });
    });

    it('bad list queries (unknown order_by field or direction, bad paging and filters) are 400', async () => {
      const q = (query: string, field: string | null): Case => ({ token: asAdmin, opts: { method: 'GET', url: `/api/resellers?${query}` }, field });
      await runCases([
        q('order_by=password_hash,asc', 'order_by'),
        q('order_by=owner_id', 'order_by'),
        q('order_by=id,sideways', 'order_by'),
        q(`order_by=${encodeURIComponent('id;drop table resellers')}`, 'order_by'),
        q('order_by=constructor', 'order_by'),
        q('order_by=__proto__,asc', 'order_by'),
        q('order_by=toString,desc', 'order_by'),
        q('order_by=hasOwnProperty', 'order_by'),
        q(`order_by=${LONG}`, 'order_by'),
        q('page=0', 'page'),
        q('page=x', 'page'),
        q('page=1.5', 'page'),
        q('page=1e12', 'page'),
        q('per=7', 'per'),
        q('per=1000', 'per'),
        q('id=x', 'id'),
        q('id=0', 'id'),
        q('id=1.5', 'id'),
        q('id=1e12', 'id'),
        q('group=abc', 'group'),
        q('status=2', 'status'),
        q('status=x', 'status'),
        q(`username=${LONG}`, 'username'),
        q(`reseller=${LONG}`, 'reseller'),
      ]);
    });
  });

  describe('bad input changes nothing', () => {
    const base = () => ({ username: 'newseller', password: PASS, member_group_id: groups.reseller, credits: 1, email: 'a@example.com', whatsapp: '+55 11 99999-0000', telegram: 'tg', notes: 'n' });
    const createCase = (changes: Record<string, unknown>, field: string | null, token = asM1): Case => ({
      token,
      opts: { method: 'POST', url: '/api/resellers', payload: { ...base(), ...changes } },
      field,
    });
    const without = (key: string) => {
      const b: Record<string, unknown> = base();
      delete b[key];
      return b;
    };

    it('POST /api/resellers: wrong types, fractions, huge and negative numbers, missing fields, 10,000-character strings, bad usernames and passwords', async () => {
      const cases: Case[] = [];
      for (const credits of ['5', 1.5, 1e12, -1, -1e12, null, true, [5]]) cases.push(createCase({ credits }, 'credits'));
      for (const credits of ['5', 1.5, 1e12, -1]) cases.push(createCase({ credits }, 'credits', asAdmin));
      for (const member_group_id of ['5', String(groups.reseller), 1.5, 1e12, 0, -1, null]) cases.push(createCase({ member_group_id }, 'member_group_id'));
      cases.push(createCase({ member_group_id: 999_999 }, 'member_group_id')); // unknown group
      cases.push(createCase({ member_group_id: groups.master }, 'member_group_id')); // masters create resellers only
      cases.push(createCase({ member_group_id: groups.admin }, 'member_group_id'));
      for (const key of ['username', 'password', 'member_group_id']) {
        cases.push({ token: asM1, opts: { method: 'POST', url: '/api/resellers', payload: without(key) }, field: key });
      }
      for (const key of ['username', 'password', 'email', 'whatsapp', 'telegram', 'notes']) cases.push(createCase({ [key]: LONG }, key));
      for (const username of ['bad name', 'bad$name', 'a<b>', 'ção123', "o'brien", 'ab', '', ' lead', 'semi;colon', 123]) cases.push(createCase({ username }, 'username'));
      for (const password of ['short7!', '', 12345678]) cases.push(createCase({ password }, 'password'));
      for (const password of ['12345678', 'password123', 'PASSWORD123', 'Password1', 'aaaaaaaaaa', 'newseller-2024']) cases.push({ ...createCase({ password }, 'password'), code: 'WEAK_PASSWORD' });
      for (const email of ['not-an-email', 'a@', 42]) cases.push(createCase({ email }, 'email'));
      for (const whatsapp of ['call me', '<b>1</b>', 5511]) cases.push(createCase({ whatsapp }, 'whatsapp'));
      cases.push(createCase({ telegram: 5 }, 'telegram'), createCase({ notes: { x: 1 } }, 'notes'));
      cases.push({ token: asM1, opts: { method: 'POST', url: '/api/resellers', payload: {} }, field: null });
      cases.push({ token: asM1, opts: { method: 'POST', url: '/api/resellers', payload: '[]', headers: { 'content-type': 'application/json' } }, field: null });
      cases.push({ token: asM1, opts: { method: 'POST', url: '/api/resellers', payload: '{"username":', headers: { 'content-type': 'application/json' } }, field: null });
      cases.push({ token: asM1, opts: { method: 'POST', url: '/api/resellers', payload: { ...base() }, headers: { 'idempotency-key': 'k'.repeat(201) } }, field: 'Idempotency-Key' });
      // usernames are unique regardless of case, across the whole panel (not just the caller's scope)
      for (const username of ['ZETA1', 'Zeta1', 'ORDM2', 'Admin', 'HOTEL3']) {
        cases.push({ ...createCase({ username }, 'username'), status: 409, code: 'USERNAME_TAKEN' });
      }
      cases.push({ ...createCase({ username: 'ZETA1' }, 'username', asAdmin), status: 409, code: 'USERNAME_TAKEN' });
      await runCases(cases);
      expect(await db().selectFrom('resellers').select('id').where('username', '=', 'newseller').executeTakeFirst()).toBeUndefined();
    });

    it('PUT /api/resellers/{id}: 10,000-character strings, bad usernames and passwords, taken usernames, bad ids', async () => {
      const put = (payload: unknown, field: string | null, url = `/api/resellers/${id.zeta1}`): Case => ({ token: asM1, opts: { method: 'PUT', url, payload: payload as Record<string, unknown> }, field });
      const cases: Case[] = [];
      for (const key of ['username', 'password', 'email', 'whatsapp', 'telegram', 'notes']) cases.push(put({ [key]: LONG }, key));
      for (const username of ['bad name', 'bad$name', 'ab', '', 5]) cases.push(put({ username }, 'username'));
      for (const password of ['short7!', 5]) cases.push(put({ password }, 'password'));
      for (const password of ['12345678', 'password123', 'qwerty123', 'zeta1zeta1zeta1']) cases.push({ ...put({ password }, 'password'), code: 'WEAK_PASSWORD' });
      cases.push(put({ email: 'nope' }, 'email'), put({ whatsapp: 'x' }, 'whatsapp'), put({ notes: 5 }, 'notes'));
      for (const username of ['ALPHA2', 'Ordm1', 'ADMIN']) cases.push({ ...put({ username }, 'username'), status: 409, code: 'USERNAME_TAKEN' });
      for (const bad of ['abc', '1.5', '0', '-1', '99999999999', '1e12']) cases.push(put({ notes: 'x' }, 'id', `/api/resellers/${bad}`));
      cases.push({ token: asM1, opts: { method: 'PUT', url: `/api/resellers/${id.zeta1}`, payload: '"notes"', headers: { 'content-type': 'application/json' } }, field: null });
      await runCases(cases);
    });

    it('POST /api/resellers/{id}/credits: strings, fractions, huge values, zero, missing or malformed value; bad ids and keys', async () => {
      const credit = (value: unknown, token = asM1, url = `/api/resellers/${id.zeta1}/credits`): Case => ({ token, opts: { method: 'POST', url, payload: { value } as Record<string, unknown> }, field: 'value' });
      const cases: Case[] = [];
      for (const value of ['5', '-5', 'abc', '', 1.5, -0.5, 1e12, -1e12, 1_000_001, null, true, [1], { n: 1 }, 0]) cases.push(credit(value));
      for (const value of ['5', 1.5, 1e12, -1e12, -1_000_001, 0]) cases.push(credit(value, asAdmin));
      cases.push(credit(-1)); // masters never take credits away
      cases.push({ token: asM1, opts: { method: 'POST', url: `/api/resellers/${id.zeta1}/credits`, payload: {} }, field: 'value' });
      cases.push({ token: asM1, opts: { method: 'POST', url: `/api/resellers/${id.zeta1}/credits`, payload: { amount: 5 } }, field: 'value' });
      cases.push({ token: asM1, opts: { method: 'POST', url: `/api/resellers/${id.zeta1}/credits`, payload: '{"value": 5', headers: { 'content-type': 'application/json' } }, field: null });
      cases.push({ token: asM1, opts: { method: 'POST', url: `/api/resellers/${id.zeta1}/credits`, payload: 'value=5', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', field: null });
      cases.push({ token: asM1, opts: { method: 'POST', url: `/api/resellers/${id.zeta1}/credits`, payload: { value: 1 }, headers: { 'idempotency-key': 'k'.repeat(201) } }, field: 'Idempotency-Key' });
      for (const bad of ['abc', '1.5', '0', '-3', '1e12', '99999999999']) cases.push({ ...credit(1, asM1, `/api/resellers/${bad}/credits`), field: 'id' });
      // beyond the master's balance
      const m1 = (await db().selectFrom('resellers').select('credits').where('id', '=', id.ordm1).executeTakeFirstOrThrow()).credits;
      cases.push({ ...credit(m1 + 1), status: 409, code: 'INSUFFICIENT_CREDITS', field: null });
      cases.push({ ...credit(1_000_000), status: 409, code: 'INSUFFICIENT_CREDITS', field: null });
      await runCases(cases);
    });

    it('block, unblock, to_master, ledger and domains with bad ids or paging are 400', async () => {
      const cases: Case[] = [];
      for (const bad of ['abc', '1.5', '0', '-1', '1e12', '99999999999', "1'or'1"]) {
        for (const action of ['block', 'unblock', 'to_master']) {
          cases.push({ token: asM1, opts: { method: 'POST', url: `/api/resellers/${encodeURIComponent(bad)}/${action}` }, field: 'id' });
        }
        cases.push({ token: asM1, opts: { method: 'GET', url: `/api/resellers/${encodeURIComponent(bad)}` }, field: 'id' });
        cases.push({ token: asM1, opts: { method: 'GET', url: `/api/resellers/${encodeURIComponent(bad)}/ledger` }, field: 'id' });
        cases.push({ token: asM1, opts: { method: 'GET', url: `/api/resellers/${encodeURIComponent(bad)}/domains` }, field: 'id' });
      }
      for (const query of ['page=0', 'page=x', 'page=1.5', 'page=1e12', 'per=7', 'per=x', 'per=1e12']) {
        cases.push({ token: asM1, opts: { method: 'GET', url: `/api/resellers/${id.zeta1}/ledger?${query}` }, field: query.split('=')[0] });
      }
      await runCases(cases);
    });

    it('PUT /api/resellers/{id}/add_domain: missing, non-string, 10,000-character and malformed values are 400', async () => {
      const url = `/api/resellers/${id.zeta1}/add_domain`;
      const dom = (payload: unknown, field: string | null, to = url): Case => ({ token: asM1, opts: { method: 'PUT', url: to, payload: payload as Record<string, unknown> }, field });
      await runCases([
        dom({}, 'dns_reseller'),
        dom({ dns_reseller: 5 }, 'dns_reseller'),
        dom({ dns_reseller: null }, 'dns_reseller'),
        dom({ dns_reseller: ['a.com'] }, 'dns_reseller'),
        dom({ dns_reseller: LONG }, 'dns_reseller'),
        dom({ dns_reseller: `${'a'.repeat(250)}.com` }, 'dns_reseller'),
        dom({ dns_reseller: 'not a domain' }, 'dns_reseller'),
        dom({ dns_reseller: 'javascript:alert(1)' }, 'dns_reseller'),
        dom({ dns_reseller: 'ftp://x.com' }, 'dns_reseller'),
        dom({ dns_reseller: 'a.com', username: LONG }, 'username'),
        dom({ dns_reseller: 'a.com', token_id: LONG }, 'token_id'),
        dom({ dns_reseller: 'a.com', owner: LONG }, null),
        dom({ dns_reseller: 'a.com' }, 'id', '/api/resellers/abc/add_domain'),
        dom({ dns_reseller: 'a.com' }, 'id', '/api/resellers/0/add_domain'),
      ]);
    });

    it('DELETE /api/resellers/{id}: missing or malformed reseller_id, type and target_id are 400', async () => {
      const del = (payload: unknown, field: string | null, url = `/api/resellers/${id.zeta1}`): Case => ({ token: asAdmin, opts: { method: 'DELETE', url, payload: payload as Record<string, unknown> }, field });
      const ok = { reseller_id: id.zeta1, type: 'transferall', target_id: id.ordm2 };
      await runCases([
        { token: asAdmin, opts: { method: 'DELETE', url: `/api/resellers/${id.zeta1}` }, field: null },
        del({}, null),
        del({ ...ok, target_id: undefined }, 'target_id'),
        del({ ...ok, type: undefined }, 'type'),
        del({ ...ok, type: 'delete' }, 'type'),
        del({ ...ok, type: LONG }, 'type'),
        del({ ...ok, target_id: String(id.ordm2) }, 'target_id'),
        del({ ...ok, target_id: 1.5 }, 'target_id'),
        del({ ...ok, target_id: 1e12 }, 'target_id'),
        del({ ...ok, target_id: 0 }, 'target_id'),
        del({ ...ok, target_id: -1 }, 'target_id'),
        del({ ...ok, target_id: null }, 'target_id'),
        del({ ...ok, reseller_id: String(id.zeta1) }, 'reseller_id'),
        del({ ...ok, reseller_id: 1.5 }, 'reseller_id'),
        del({ ...ok, target_id: id.zeta1 }, 'target_id'), // itself
        del(ok, 'id', '/api/resellers/abc'),
        del(ok, 'id', '/api/resellers/1e12'),
      ]);
    });

    it('POST /api/resellers/select_search: non-word characters, long, missing or non-string search are 400', async () => {
      const search = (payload: unknown): Case => ({ token: asM1, opts: { method: 'POST', url: '/api/resellers/select_search', payload: payload as Record<string, unknown> }, field: 'search' });
      await runCases([
        ...['a b', 'a%', '%', "a'", '<script>', 'a-b', 'a.b', 'ção', 'zeta1;', '_%_', LONG, 'a'.repeat(51)].map((s) => search({ search: s })),
        search({}),
        search({ search: 5 }),
        search({ search: null }),
        search({ search: ['a'] }),
      ]);
      // word characters, including the underscore, are accepted and taken literally
      const res = await t.call(tok.ordm1, { method: 'POST', url: '/api/resellers/select_search', payload: { search: '_' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
    });
  });

  describe('creating with initial credits', () => {
    it('a master creating a reseller with more credits than it has gets 409 INSUFFICIENT_CREDITS and no row is created', async () => {
      const balance = async () => (await db().selectFrom('resellers').select('credits').where('id', '=', id.ordm2).executeTakeFirstOrThrow()).credits;
      const have = await balance();
      expect(have).toBe(8);
      const before = await snapshot();
      for (const credits of [have + 1, 1_000_000]) {
        const res = await t.call(tok.ordm2, { method: 'POST', url: '/api/resellers', payload: { username: 'toorich', password: PASS, member_group_id: groups.reseller, credits } });
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().code).toBe('INSUFFICIENT_CREDITS');
      }
      expect(await snapshot()).toEqual(before);
      expect(await db().selectFrom('resellers').select('id').where('username', '=', 'toorich').executeTakeFirst()).toBeUndefined();

      // the refused attempts left nothing behind: the same username with exactly the balance succeeds
      const ok = await t.call(tok.ordm2, { method: 'POST', url: '/api/resellers', payload: { username: 'toorich', password: PASS, member_group_id: groups.reseller, credits: have } });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().credits).toBe(have);
      expect(await balance()).toBe(0);
      const created = await db().selectFrom('reseller_tree').select(['ancestor_id', 'depth']).where('descendant_id', '=', ok.json().id).orderBy('depth').execute();
      expect(created.map((r) => r.depth)).toEqual([0, 1, 2]);
      expect(created[1].ancestor_id).toBe(id.ordm2);
      for (const rid of [id.ordm2, ok.json().id]) {
        const sum = await db().selectFrom('credit_ledger').select((eb) => eb.fn.sum<number>('delta').as('s')).where('reseller_id', '=', rid).executeTakeFirst();
        const bal = (await db().selectFrom('resellers').select('credits').where('id', '=', rid).executeTakeFirstOrThrow()).credits;
        expect(Number(sum?.s ?? 0)).toBe(bal);
      }
    });
  });
});
