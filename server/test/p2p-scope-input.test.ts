import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from './helpers.ts';
import { createLine } from './fixtures.ts';
import { type Actor, type P2pAccount, type P2pWorld, p2pWorld } from './p2p-fixtures.ts';

// Scope exactly as lines: an account outside the caller's subtree is a 404 on every route and
// nothing changes; bad input on every route is a 4xx that charges and changes nothing.

const LONG = 'a'.repeat(10_000);

describe(`P2P accounts: scope and input (${ENGINE})`, () => {
  let w: P2pWorld;
  // M1 -> R1 (its sub-reseller); M2 a sibling master; R2 a plain reseller under the admin
  let M1: Actor;
  let R1: Actor;
  let M2: Actor;
  let R2: Actor;
  const A: Record<string, P2pAccount> = {};
  const L: Record<string, number> = {};
  const db = () => w.t.database.db;

  /** Everything a refused call must leave as it was. */
  async function snapshot() {
    const [accounts, lines, resellers, ledger, outbox, keys, logs, imports] = await Promise.all([
      db().selectFrom('p2p_accounts').selectAll().orderBy('id').execute(),
      db().selectFrom('lines').selectAll().orderBy('id').execute(),
      db().selectFrom('resellers').select(['id', 'credits']).orderBy('id').execute(),
      db().selectFrom('credit_ledger').select('id').execute(),
      db().selectFrom('outbox').select('id').execute(),
      db().selectFrom('idempotency_keys').select('key').execute(),
      db().selectFrom('logs').select('id').execute(),
      db().selectFrom('p2p_imports').select('id').execute(),
    ]);
    return { accounts, lines, resellers, ledger: ledger.length, outbox: outbox.length, keys: keys.length, logs: logs.length, imports: imports.length };
  }

  /** Every route about one account, with a body that is valid for an account in scope. */
  function routes(id: number): [string, InjectOptions][] {
    return [
      ['get', { method: 'GET', url: `/api/p2p/users/${id}` }],
      ['put', { method: 'PUT', url: `/api/p2p/users/${id}`, payload: { name: 'hijacked', username: `hijack${id}`, password: 'hijack1' } }],
      ['block', { method: 'POST', url: `/api/p2p/users/${id}/block` }],
      ['unblock', { method: 'POST', url: `/api/p2p/users/${id}/unblock` }],
      ['renew', { method: 'POST', url: `/api/p2p/users/${id}/renew`, payload: { months: 2 } }],
      ['renew with key', { method: 'POST', url: `/api/p2p/users/${id}/renew`, payload: { months: 1 }, headers: { 'idempotency-key': `scope-${id}` } }],
      ['delete', { method: 'DELETE', url: `/api/p2p/users/${id}` }],
    ];
  }

  beforeAll(async () => {
    w = await p2pWorld();
    M1 = await w.reseller('scope_m1', 'master', 100);
    R1 = await w.reseller('scope_r1', 'reseller', 30, M1.token);
    M2 = await w.reseller('scope_m2', 'master', 100);
    R2 = await w.reseller('scope_r2', 'reseller', 50);
    const owners: [string, () => string][] = [
      ['m1', () => M1.token],
      ['r1', () => R1.token],
      ['m2', () => M2.token],
      ['r2', () => R2.token],
      ['admin', () => w.admin],
    ];
    for (const [k, token] of owners) {
      A[k] = await w.account(token(), { name: `acc ${k}`, username: `acc_${k}` });
      L[k] = (await createLine(w.t, token(), { package_id: w.cheap, username: `p2pline_${k}` })).id;
      expect((await w.t.call(token(), { method: 'POST', url: `/api/users/${L[k]}/change_system`, payload: { system_id: 2 } })).statusCode).toBe(200);
    }
    const watching = (username: string) => ({ username, channel_name: 'c', duration: 1, external_ip: '1.1.1.1', app_version: '1', app_name: 'a' });
    w.p2p.online = Object.keys(A).flatMap((k) => [watching(A[k].email), watching(`p2pline_${k}`)]);
  });
  afterAll(() => w?.close());

  describe('outside the subtree every P2P route is a 404 and nothing changes', () => {
    const cases: [string, () => Actor, string[]][] = [
      ['a master', () => M1, ['m2', 'r2', 'admin']],
      ['a sibling master', () => M2, ['m1', 'r1']],
      ['a plain reseller', () => R2, ['m1', 'r1', 'm2', 'admin']],
      ['a sub-reseller (its master is above it)', () => R1, ['m1', 'm2', 'r2']],
    ];
    for (const [label, who, victims] of cases) {
      it(label, async () => {
        const actor = who();
        const before = await snapshot();
        for (const v of victims) {
          for (const [name, opts] of routes(A[v].id)) {
            const res = await w.t.call(actor.token, opts);
            expect(res.statusCode, `${actor.username} ${name} on acc_${v}: ${res.body}`).toBe(404);
            expect(res.json().code).toBe('NOT_FOUND');
          }
          const resync = await w.t.call(actor.token, { method: 'POST', url: `/api/users/${L[v]}/resync_p2p` });
          expect(resync.statusCode, `resync p2pline_${v}`).toBe(404);
          // nor do the lists and the search reveal it
          for (const q of [`id=${A[v].id}`, `username=acc_${v}`]) {
            const list = (await w.t.call(actor.token, { method: 'GET', url: `/api/p2p/users?${q}` })).json();
            expect(list.meta.total, `list ${q}`).toBe(0);
          }
          const search = (await w.t.call(actor.token, { method: 'POST', url: '/api/p2p/users/select_search', payload: { search: `acc_${v}` } })).json();
          expect(search.data, `select_search ${v}`).toEqual([]);
          const owner = (await db().selectFrom('resellers').select('username').where('id', '=', A[v].member_id).executeTakeFirstOrThrow()).username;
          expect((await w.t.call(actor.token, { method: 'GET', url: `/api/p2p/users?reseller=${owner}` })).json().meta.total, `reseller=${owner}`).toBe(0);
        }
        const online = (await w.t.call(actor.token, { method: 'GET', url: '/api/p2p/users/online' })).json().data.map((r: { username: string }) => r.username);
        expect(online.length, 'its own are online').toBeGreaterThan(0);
        for (const v of victims) expect(online, `online shows ${v}`).not.toContain(A[v].email);
        for (const v of victims) expect(online, `online shows ${v}`).not.toContain(`p2pline_${v}`);
        expect(await snapshot()).toEqual(before);
      });
    }
  });

  it("a master manages its sub-reseller's accounts, paying from its own balance", async () => {
    const list = (await w.t.call(M1.token, { method: 'GET', url: '/api/p2p/users?per=100' })).json();
    expect(list.data.map((r: P2pAccount) => r.username).sort()).toEqual(['acc_m1', 'acc_r1']);
    const m1 = await w.balance(M1.id);
    const r1 = await w.balance(R1.id);
    const renew = await w.t.call(M1.token, { method: 'POST', url: `/api/p2p/users/${A.r1.id}/renew`, payload: { months: 2 } });
    expect(renew.statusCode, renew.body).toBe(200);
    expect(await w.balance(M1.id)).toBe(m1 - 2);
    expect(await w.balance(R1.id)).toBe(r1);
    expect((await w.t.call(R1.token, { method: 'GET', url: '/api/p2p/users?per=100' })).json().data.map((r: P2pAccount) => r.id)).toEqual([A.r1.id]);
  });

  it('the same requests succeed for the owner (only scope refused them)', async () => {
    const own = await w.account(R2.token, { username: 'r2_control' });
    const before = await w.balance(R2.id);
    for (const [name, opts] of routes(own.id)) {
      const res = await w.t.call(R2.token, opts);
      expect(res.statusCode, `${name}: ${res.body}`).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(300);
    }
    expect(before - (await w.balance(R2.id))).toBe(3);
    expect((await w.t.call(R2.token, { method: 'POST', url: `/api/users/${L.r2}/resync_p2p` })).statusCode).toBe(200);
  });

  describe('bad input on every route is a 4xx and changes nothing', () => {
    async function expectAll4xx(token: string, cases: [string, InjectOptions][]) {
      const before = await snapshot();
      for (const [name, opts] of cases) {
        const res = await w.t.call(token, opts);
        expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode === 400) expect(res.json().field, `${name}: the field is named`).toBeTruthy();
      }
      const after = await snapshot();
      // refused sign-ins to the old panel write nothing either
      expect(after).toEqual(before);
    }
    const post = (url: string, payload: unknown): InjectOptions => ({ method: 'POST', url, payload: payload as object });
    const put = (url: string, payload: unknown): InjectOptions => ({ method: 'PUT', url, payload: payload as object });

    it('create and trial', async () => {
      const ok = { name: 'n', username: 'fine_name', password: 'fine123', package_id: w.cheap };
      const bad: [string, unknown][] = [
        ['no body', undefined],
        ['missing package_id', { name: 'n' }],
        ['missing name', { package_id: w.cheap }],
        ['package_id as text', { ...ok, package_id: String(w.cheap) }],
        ['package_id 0', { ...ok, package_id: 0 }],
        ['package_id negative', { ...ok, package_id: -1 }],
        ['package_id fractional', { ...ok, package_id: 1.5 }],
        ['package_id huge', { ...ok, package_id: 2 ** 31 }],
        ['unknown package', { ...ok, package_id: 999_999 }],
        ['username with @', { ...ok, username: 'a@b' }],
        ['username with space', { ...ok, username: 'a b' }],
        ['username 51 chars', { ...ok, username: 'u'.repeat(51) }],
        ['username huge', { ...ok, username: LONG }],
        ['password with space', { ...ok, password: 'pass word' }],
        ['password huge', { ...ok, password: LONG }],
        ['name 101 chars', { ...ok, name: 'n'.repeat(101) }],
        ['name with NUL', { ...ok, name: 'a\u0000b' }],
        ['name as number', { ...ok, name: 5 }],
        ['max_connections 0', { ...ok, max_connections: 0 }],
        ['max_connections 101', { ...ok, max_connections: 101 }],
        ['max_connections above the setting', { ...ok, max_connections: 2 }],
        ['whatsapp letters', { ...ok, whatsapp: 'call me' }],
        ['notes huge', { ...ok, notes: LONG }],
        ['array body', [ok]],
      ];
      await expectAll4xx(R2.token, [
        ...bad.map(([n, b]): [string, InjectOptions] => [`create ${n}`, post('/api/p2p/users', b)]),
        ...bad.filter(([n]) => !/max_connections|whatsapp|notes/.test(n)).map(([n, b]): [string, InjectOptions] => [`trial ${n}`, post('/api/p2p/test_users', b)]),
        ['create from a trial package', post('/api/p2p/users', { ...ok, package_id: w.trialPkg })],
        ['trial from a paid package', post('/api/p2p/test_users', { ...ok, package_id: w.cheap })],
        ['malformed JSON', { method: 'POST', url: '/api/p2p/users', payload: '{"name":', headers: { 'content-type': 'application/json' } }],
        ['text body', { method: 'POST', url: '/api/p2p/users', payload: 'name=x', headers: { 'content-type': 'text/plain' } }],
      ]);
    });

    it('edit, renew and the path ids', async () => {
      const id = A.r2.id;
      await expectAll4xx(R2.token, [
        ['edit username with @', put(`/api/p2p/users/${id}`, { username: 'x@y' })],
        ['edit name too long', put(`/api/p2p/users/${id}`, { name: 'n'.repeat(101) })],
        ['edit password huge', put(`/api/p2p/users/${id}`, { password: LONG })],
        ['edit name as array', put(`/api/p2p/users/${id}`, { name: ['x'] })],
        ['edit to a taken username', put(`/api/p2p/users/${id}`, { username: 'acc_m1' })],
        ...[0, 13, -1, 1.5, '1', null, 1e9].map((months): [string, InjectOptions] => [`renew months ${JSON.stringify(months)}`, post(`/api/p2p/users/${id}/renew`, { months })]),
        ['renew without months', post(`/api/p2p/users/${id}/renew`, {})],
        ['renew with a 201-character key', { ...post(`/api/p2p/users/${id}/renew`, { months: 1 }), headers: { 'idempotency-key': 'k'.repeat(201) } }],
        ...['abc', '0', '-1', '2147483648', '1e0', '0x1', '%201', '1.5'].flatMap((bad): [string, InjectOptions][] => [
          [`get id ${bad}`, { method: 'GET', url: `/api/p2p/users/${bad}` }],
          [`renew id ${bad}`, post(`/api/p2p/users/${bad}/renew`, { months: 1 })],
          [`delete id ${bad}`, { method: 'DELETE', url: `/api/p2p/users/${bad}` }],
          [`resync id ${bad}`, { method: 'POST', url: `/api/users/${bad}/resync_p2p` }],
        ]),
        ['resync an HTTP line', post(`/api/users/${(await w.t.call(R2.token, { method: 'POST', url: '/api/users', payload: { package_id: w.cheap } })).json().id}/resync_p2p`, undefined)],
      ]);
    });

    it('list, search, online and the old panel', async () => {
      await expectAll4xx(R2.token, [
        ...['status=2', 'status=x', 'per=7', 'page=0', 'page=-1', 'order_by=nope,asc', 'order_by=id,up', 'type_user=vip', 'id=0', 'id=abc', `username=${'u'.repeat(51)}`].map(
          (q): [string, InjectOptions] => [`list ?${q}`, { method: 'GET', url: `/api/p2p/users?${q}` }],
        ),
        ['search with a space', post('/api/p2p/users/select_search', { search: 'a b' })],
        ['search with %', post('/api/p2p/users/select_search', { search: '%' })],
        ['search huge', post('/api/p2p/users/select_search', { search: LONG })],
        ['search missing', post('/api/p2p/users/select_search', {})],
        ...['/api/p2p/attach_login', '/api/p2p/migrate_reseller'].flatMap((url): [string, InjectOptions][] => [
          [`${url} username of 3 characters`, post(url, { username: 'abc', password: 'x' })],
          [`${url} no password`, post(url, { username: 'antigo' })],
          [`${url} empty password`, post(url, { username: 'antigo', password: '' })],
          [`${url} huge username`, post(url, { username: LONG, password: 'x' })],
          [`${url} numbers`, post(url, { username: 1234, password: 1234 })],
        ]),
        ['migrate_reseller wrong password', post('/api/p2p/migrate_reseller', { username: 'nobody_old', password: 'nope' })],
        ['migrate_clients without an attached sign-in', post('/api/p2p/migrate_clients', undefined)],
        ['admin outbox as a reseller', { method: 'GET', url: '/api/admin/p2p/outbox' }],
      ]);
    });

    it('nothing was charged by any of it', async () => {
      expect(await w.ledgerSum(R2.id)).toBe(await w.balance(R2.id));
      const spent = await db().selectFrom('credit_ledger').select(['reason', 'delta']).where('reseller_id', '=', R2.id).where('delta', '<', 0).orderBy('id').execute();
      // acc_r2 and its line (1 each), the control account (1) and its renewals (2 + 1), and the HTTP line made for the resync case
      expect(spent.map((r) => r.reason)).toEqual(['p2p_create', 'line_create', 'p2p_create', 'p2p_renew', 'p2p_renew', 'line_create']);
    });
  });
});
