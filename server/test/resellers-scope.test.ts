import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs, nowSec } from '../src/lib/clock.ts';
import { createReseller, groupIds, ledgerSumOf } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext, logIdsInScope } from './helpers.ts';
import type { Reseller, SearchOption } from '../../web/src/api/types.ts';

// Tree built once for the whole file (argon2 makes every create and sign-in cost ~50 ms):
//
//   admin ─┬─ mastera (master, 100) ─┬─ suba1 (reseller -> made master at exactly 1 credit) ── suba1x (reseller, 2)
//          │                         └─ plainp (plain reseller, 0)
//          └─ masterb (master, 50) ──── subb1 (reseller, 5)
//
// The tests run in file order: the read-only scope checks first, then the state changes,
// and the deactivation of mastera (which reshapes the tree) last.

const PASS = 'Scope-pass-2024';
const MISSING_ID = 987654;

type Res = Awaited<ReturnType<TestContext['call']>>;

describe(`reseller scope, blocking, promotion, deactivation, ledger, logs and domains (${ENGINE})`, () => {
  let t: TestContext;
  const groups: Record<string, number> = {};
  const id: Record<string, number> = {};
  const tok: Record<string, string> = {};
  const promotion: Record<string, Res> = {};
  let blockWindow: [number, number];

  const db = () => t.database.db;
  const label = (opts: InjectOptions) => `${opts.method} ${opts.url} ${JSON.stringify(opts.payload ?? '')}`;

  async function expectStatus(token: string | null, opts: InjectOptions, status: number) {
    const res = await t.call(token, opts);
    expect(res.statusCode, `${label(opts)} -> ${res.body.slice(0, 300)}`).toBe(status);
    return res;
  }

  async function create(token: string, username: string, type: 'master' | 'reseller', credits = 0) {
    const made = await createReseller(t, token, { username, password: PASS, type, credits, groups });
    id[username] = made.id;
    return made.body;
  }

  const row = (rid: number) => db().selectFrom('resellers').selectAll().where('id', '=', rid).executeTakeFirstOrThrow();
  const balance = async (rid: number) => (await row(rid)).credits;
  const ledgerSum = (rid: number) => ledgerSumOf(db(), rid);
  const ledgerCount = async () => Number((await db().selectFrom('credit_ledger').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  /** Everything a reseller call could change: a refused call must leave all of it as it was. */
  async function snapshot() {
    const [resellers, tree, ledger, domains, revoked, logs, idem] = await Promise.all([
      db().selectFrom('resellers').select(['id', 'username', 'password_hash', 'credits', 'owner_id', 'member_group_id', 'status', 'deleted_at', 'email', 'whatsapp', 'telegram', 'notes']).orderBy('id').execute(),
      db().selectFrom('reseller_tree').selectAll().orderBy('ancestor_id').orderBy('descendant_id').execute(),
      db().selectFrom('credit_ledger').select(['id', 'reseller_id', 'delta', 'balance_after']).orderBy('id').execute(),
      db().selectFrom('reseller_domains').select(['id', 'reseller_id', 'dns_reseller']).orderBy('id').execute(),
      db().selectFrom('sessions').select(['id', 'revoked_at']).where('revoked_at', 'is not', null).orderBy('id').execute(),
      db().selectFrom('logs').select(['id', 'action']).where('type_log', 'in', ['reseller', 'credits']).orderBy('id').execute(),
      db().selectFrom('idempotency_keys').select(['reseller_id', 'key']).execute(),
    ]);
    return { resellers, tree, ledger, domains, revoked, logs, idem };
  }

  async function expectBalancesMatchLedger() {
    for (const r of await db().selectFrom('resellers').select(['id', 'username', 'credits']).execute()) {
      expect(await ledgerSum(r.id), `ledger sum of ${r.username}`).toBe(r.credits);
    }
  }

  /** Every route that takes a reseller id, as `caller` would try it against `target`. */
  function idRoutes(target: number, callerId: number): InjectOptions[] {
    const base = `/api/resellers/${target}`;
    return [
      { method: 'GET', url: base },
      { method: 'PUT', url: base, payload: { notes: 'hijacked', email: 'evil@example.com', telegram: 'evil' } },
      { method: 'POST', url: `${base}/block` },
      { method: 'POST', url: `${base}/unblock` },
      { method: 'POST', url: `${base}/credits`, payload: { value: 1 } },
      { method: 'POST', url: `${base}/to_master` },
      { method: 'GET', url: `${base}/ledger` },
      { method: 'GET', url: `${base}/domains` },
      { method: 'PUT', url: `${base}/add_domain`, payload: { dns_reseller: 'evil.example.com' } },
      { method: 'DELETE', url: base, payload: { reseller_id: target, type: 'transferall', target_id: callerId } },
    ];
  }

  const usernames = (res: Res) => (res.json().data as Reseller[]).map((r) => r.username).sort();
  const listAs = (token: string, query = 'per=100') => expectStatus(token, { method: 'GET', url: `/api/resellers?${query}` }, 200);
  const logsAs = (token: string, query: string) => expectStatus(token, { method: 'GET', url: `/api/logs?per=100&${query}` }, 200);

  beforeAll(async () => {
    t = await createTestContext();
    tok.admin = await t.login('admin');
    id.admin = (await db().selectFrom('resellers').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
    Object.assign(groups, await groupIds(t, tok.admin));

    await create(tok.admin, 'mastera', 'master', 100);
    await create(tok.admin, 'masterb', 'master', 50);
    tok.mastera = await t.login('mastera', PASS);
    tok.masterb = await t.login('masterb', PASS);
    await create(tok.mastera, 'suba1', 'reseller', 1);
    await create(tok.mastera, 'plainp', 'reseller', 0);
    // promotion: at exactly the threshold (1 credit), at 0 credits, and a second time
    promotion.atThreshold = await t.call(tok.mastera, { method: 'POST', url: `/api/resellers/${id.suba1}/to_master` });
    promotion.zeroCredits = await t.call(tok.mastera, { method: 'POST', url: `/api/resellers/${id.plainp}/to_master` });
    promotion.again = await t.call(tok.mastera, { method: 'POST', url: `/api/resellers/${id.suba1}/to_master` });
    await expectStatus(tok.mastera, { method: 'POST', url: `/api/resellers/${id.suba1}/credits`, payload: { value: 4 } }, 200);
    tok.suba1 = await t.login('suba1', PASS);
    await create(tok.suba1, 'suba1x', 'reseller', 2);
    await create(tok.masterb, 'subb1', 'reseller', 5);
    tok.plainp = await t.login('plainp', PASS);
    tok.suba1x = await t.login('suba1x', PASS);
  });
  afterAll(() => t?.close());

  it('the tree was built as intended (owners, groups, balances)', async () => {
    expect((await row(id.mastera)).credits).toBe(95);
    expect((await row(id.suba1)).owner_id).toBe(id.mastera);
    expect((await row(id.suba1x)).owner_id).toBe(id.suba1);
    expect((await row(id.suba1)).credits).toBe(3);
    expect((await row(id.suba1x)).credits).toBe(2);
    expect((await row(id.subb1)).owner_id).toBe(id.masterb);
    expect((await row(id.plainp)).credits).toBe(0);
    await expectBalancesMatchLedger();
  });

  it('masters and sub-masters get 404 on every id route for resellers outside their subtree (DELETE: 403), and nothing changes', async () => {
    const attempts: [string, string[]][] = [
      ['masterb', ['admin', 'mastera', 'suba1', 'suba1x', 'plainp']],
      ['mastera', ['admin', 'masterb', 'subb1']],
      ['suba1', ['admin', 'mastera', 'plainp', 'masterb', 'subb1']],
    ];
    const before = await snapshot();
    for (const [caller, targets] of attempts) {
      for (const target of [...targets.map((u) => id[u]), MISSING_ID]) {
        for (const opts of idRoutes(target, id[caller])) {
          const res = await t.call(tok[caller], opts);
          const expected = opts.method === 'DELETE' ? [403, 404] : [404];
          expect(expected, `${caller}: ${label(opts)} -> ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
          expect(res.json().code).toBe(res.statusCode === 404 ? 'NOT_FOUND' : 'FORBIDDEN');
        }
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a plain reseller changes nothing on any id route, and cannot tell an existing reseller from a missing one', async () => {
    const before = await snapshot();
    const targets = ['admin', 'mastera', 'suba1', 'suba1x', 'masterb', 'subb1'].map((u) => id[u]);
    const missing = await Promise.all(idRoutes(MISSING_ID, id.plainp).map((opts) => t.call(tok.plainp, opts)));
    for (const target of targets) {
      const routes = idRoutes(target, id.plainp);
      for (const [i, opts] of routes.entries()) {
        const res = await t.call(tok.plainp, opts);
        expect(res.statusCode, `plainp: ${label(opts)} -> ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `plainp: ${label(opts)}`).toBeLessThan(500);
        expect(res.statusCode, `plainp: ${label(opts)} vs a missing id`).toBe(missing[i].statusCode);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a plain reseller gets 404 (not 403) on every id route of a reseller outside its subtree, DELETE excepted', async () => {
    // The scope rule: "a reseller outside the caller's subtree is 404 on every route (read, edit, block, credits, to_master, domains, delete)".
    const before = await snapshot();
    const wrong: string[] = [];
    for (const target of ['mastera', 'suba1', 'masterb', 'subb1'].map((u) => id[u])) {
      for (const opts of idRoutes(target, id.plainp)) {
        const res = await t.call(tok.plainp, opts);
        const ok = opts.method === 'DELETE' ? [403, 404].includes(res.statusCode) : res.statusCode === 404;
        if (!ok) wrong.push(`${opts.method} ${opts.url} -> ${res.statusCode} ${res.json().code}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('lists and select_search hold exactly the caller\'s subtree (whole depth, never itself)', async () => {
    expect(usernames(await listAs(tok.mastera))).toEqual(['plainp', 'suba1', 'suba1x']);
    expect(usernames(await listAs(tok.masterb))).toEqual(['subb1']);
    expect(usernames(await listAs(tok.suba1))).toEqual(['suba1x']);
    expect(usernames(await listAs(tok.admin))).toEqual(['mastera', 'masterb', 'plainp', 'suba1', 'suba1x', 'subb1']);
    expect((await listAs(tok.mastera)).json().meta.total).toBe(3);

    // filters never widen the scope
    for (const q of [`id=${id.suba1}`, 'reseller=mastera', 'username=sub', `group=${groups.master}`, 'status=1']) {
      const res = await listAs(tok.masterb, q);
      expect(usernames(res).filter((u) => u !== 'subb1'), `masterb ?${q}`).toEqual([]);
    }
    expect((await listAs(tok.masterb, `id=${id.suba1}`)).json().meta.total).toBe(0);

    const search = async (token: string, s: string) => {
      const res = await expectStatus(token, { method: 'POST', url: '/api/resellers/select_search', payload: { search: s } }, 200);
      return (res.json().data as SearchOption[]).map((d) => d.label).sort();
    };
    expect(await search(tok.mastera, '')).toEqual(['plainp', 'suba1', 'suba1x']);
    expect(await search(tok.masterb, '1')).toEqual(['subb1']);
    expect(await search(tok.masterb, 'master')).toEqual([]);
    expect(await search(tok.suba1, 'sub')).toEqual(['suba1x']);
    expect(await search(tok.admin, 'MASTER')).toEqual(['mastera', 'masterb']);
    const values = (await expectStatus(tok.mastera, { method: 'POST', url: '/api/resellers/select_search', payload: { search: 'suba1x' } }, 200)).json().data;
    expect(values).toEqual([{ label: 'suba1x', value: String(id.suba1x) }]);
  });

  it('a plain reseller cannot list, search or create resellers (403) and creates no row', async () => {
    const before = await snapshot();
    for (const opts of [
      { method: 'GET', url: '/api/resellers' },
      { method: 'POST', url: '/api/resellers/select_search', payload: { search: 'sub' } },
      { method: 'POST', url: '/api/resellers', payload: { username: 'pchild', password: PASS, member_group_id: groups.reseller, credits: 0 } },
    ] as InjectOptions[]) {
      const res = await expectStatus(tok.plainp, opts, 403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    expect(await snapshot()).toEqual(before);
    expect(await db().selectFrom('resellers').select('id').where('username', '=', 'pchild').executeTakeFirst()).toBeUndefined();
  });

  it('nobody changes credits, owner, group or status through PUT /api/resellers/{id}: extra fields are ignored', async () => {
    const extras = { credits: 99999, owner_id: id.masterb, member_group_id: groups.admin, status: 0, deleted_at: 1, id: id.subb1, balance: 5 };
    const ledgerBefore = await ledgerCount();
    for (const [caller, target] of [
      ['mastera', 'suba1'],
      ['admin', 'plainp'],
      ['suba1', 'suba1x'],
    ]) {
      const before = await row(id[target]);
      const res = await expectStatus(tok[caller], { method: 'PUT', url: `/api/resellers/${id[target]}`, payload: { notes: `edited by ${caller}`, ...extras } }, 200);
      expect(res.json().notes).toBe(`edited by ${caller}`);
      expect(res.json().credits).toBe(before.credits);
      const after = await row(id[target]);
      expect(after.notes).toBe(`edited by ${caller}`);
      expect({ ...after, notes: before.notes }).toEqual(before);
    }
    expect(await ledgerCount()).toBe(ledgerBefore);
    expect(usernames(await listAs(tok.mastera))).toEqual(['plainp', 'suba1', 'suba1x']);
  });

  it('to_master: works at exactly master_min_credit_create credits, 409 INSUFFICIENT_CREDITS below it, 409 ALREADY_MASTER after', async () => {
    expect(promotion.atThreshold.statusCode, promotion.atThreshold.body).toBe(200);
    expect(promotion.atThreshold.json()).toMatchObject({ id: id.suba1, group_type: 'master', member_group_id: groups.master, credits: 1 });
    expect(promotion.zeroCredits.statusCode).toBe(409);
    expect(promotion.zeroCredits.json().code).toBe('INSUFFICIENT_CREDITS');
    expect(promotion.again.statusCode).toBe(409);
    expect(promotion.again.json().code).toBe('ALREADY_MASTER');
    expect((await row(id.plainp)).member_group_id).toBe(groups.reseller);
    expect((await row(id.suba1)).member_group_id).toBe(groups.master);

    // the threshold is read from the setting: with 3, suba1x (2 credits) may not be promoted
    await db().updateTable('settings').set({ value: '3' }).where('key', '=', 'master_min_credit_create').execute();
    try {
      const before = await snapshot();
      const res = await expectStatus(tok.suba1, { method: 'POST', url: `/api/resellers/${id.suba1x}/to_master` }, 409);
      expect(res.json().code).toBe('INSUFFICIENT_CREDITS');
      expect(await snapshot()).toEqual(before);
    } finally {
      await db().updateTable('settings').set({ value: '1' }).where('key', '=', 'master_min_credit_create').execute();
    }
    const logs = (await logsAs(tok.admin, 'actions=reseller_to_master')).json();
    expect(logs.meta.total).toBe(1);
    expect(logs.data[0]).toMatchObject({ user: 'mastera', toreseller: 'suba1' });
  });

  it('blocking revokes the sessions and refuses sign-in; unblocking allows a fresh sign-in but not the old token', async () => {
    const oldToken = tok.plainp;
    expect((await t.call(oldToken, { method: 'GET', url: '/api/profile' })).statusCode).toBe(200);
    const from = nowMs();
    const blocked = await expectStatus(tok.mastera, { method: 'POST', url: `/api/resellers/${id.plainp}/block` }, 200);
    blockWindow = [from, nowMs()];
    expect(blocked.json().status).toBe(0);
    expect((await row(id.plainp)).status).toBe(0);
    const open = await db().selectFrom('sessions').select('id').where('reseller_id', '=', id.plainp).where('revoked_at', 'is', null).execute();
    expect(open).toEqual([]);
    const denied = await t.call(oldToken, { method: 'GET', url: '/api/profile' });
    expect(denied.statusCode).toBe(401);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { username: 'plainp', password: PASS } });
    expect(signIn.statusCode).toBe(401);
    expect(signIn.json().code).toBe('INVALID_CREDENTIALS');
    expect((await listAs(tok.mastera, 'status=0')).json().data.map((r: { id: number }) => r.id)).toEqual([id.plainp]);

    const unblocked = await expectStatus(tok.mastera, { method: 'POST', url: `/api/resellers/${id.plainp}/unblock` }, 200);
    expect(unblocked.json().status).toBe(1);
    expect((await t.call(oldToken, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    tok.plainp = await t.login('plainp', PASS);
    const me = await expectStatus(tok.plainp, { method: 'GET', url: '/api/profile' }, 200);
    expect(me.json().username).toBe('plainp');
  });

  it('admin burn is floored at 0; a master may not send a negative or zero value', async () => {
    const masterbBefore = await balance(id.masterb);
    expect(await balance(id.subb1)).toBe(5);
    const burn = await expectStatus(tok.admin, { method: 'POST', url: `/api/resellers/${id.subb1}/credits`, payload: { value: -1000 } }, 200);
    expect(burn.json().credits).toBe(0);
    expect(await balance(id.subb1)).toBe(0);
    const last = await db().selectFrom('credit_ledger').selectAll().where('reseller_id', '=', id.subb1).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(last).toMatchObject({ delta: -5, balance_after: 0, reason: 'admin_burn' });
    expect(await balance(id.masterb)).toBe(masterbBefore);
    const log = (await logsAs(tok.admin, `actions=remove_credits&toreseller=${id.subb1}`)).json();
    expect(log.data.map((l: { value_int: number }) => l.value_int)).toEqual([-5]);

    // burning an empty balance: still 0, no ledger row
    const ledgerBefore = await ledgerCount();
    const again = await expectStatus(tok.admin, { method: 'POST', url: `/api/resellers/${id.subb1}/credits`, payload: { value: -1 } }, 200);
    expect(again.json().credits).toBe(0);
    expect(await ledgerCount()).toBe(ledgerBefore);

    await expectStatus(tok.masterb, { method: 'POST', url: `/api/resellers/${id.subb1}/credits`, payload: { value: 2 } }, 200);
    const before = await snapshot();
    for (const value of [-1, -1000, 0]) {
      const res = await expectStatus(tok.masterb, { method: 'POST', url: `/api/resellers/${id.subb1}/credits`, payload: { value } }, 400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION', field: 'value' });
    }
    expect(await snapshot()).toEqual(before);
    expect(await balance(id.subb1)).toBe(2);
    await expectBalancesMatchLedger();
  });

  it('the ledger is readable by the reseller and its ancestors only, paged newest first', async () => {
    for (let i = 0; i < 11; i++) {
      await expectStatus(tok.mastera, { method: 'POST', url: `/api/resellers/${id.plainp}/credits`, payload: { value: 1 } }, 200);
    }
    expect(await balance(id.plainp)).toBe(11);
    const url = `/api/resellers/${id.plainp}/ledger`;
    for (const reader of ['plainp', 'mastera', 'admin']) {
      const p1 = (await expectStatus(tok[reader], { method: 'GET', url }, 200)).json();
      expect(p1.meta).toEqual({ page: 1, per: 10, count: 10, pages: 2, total: 11, next: expect.any(String) });
      const ids = p1.data.map((r: { id: number }) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(p1.data[0]).toMatchObject({ delta: 1, balance_after: 11, reason: 'transfer_in', counterparty: 'mastera', actor: 'mastera' });
      expect(p1.data.map((r: { balance_after: number }) => r.balance_after)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
      const p2 = (await expectStatus(tok[reader], { method: 'GET', url: `${url}?page=2` }, 200)).json();
      expect(p2.meta).toMatchObject({ page: 2, count: 1, total: 11 });
      expect(p2.data[0].balance_after).toBe(1);
      expect(p2.data[0].id).toBeLessThan(Math.min(...ids));
      const all = (await expectStatus(tok[reader], { method: 'GET', url: `${url}?per=20` }, 200)).json();
      expect(all.data).toHaveLength(11);
    }
    // the giver's side: mastera's own ledger, readable by itself, not by those below it
    const mine = (await expectStatus(tok.mastera, { method: 'GET', url: `/api/resellers/${id.mastera}/ledger` }, 200)).json();
    expect(mine.data[0]).toMatchObject({ delta: -1, balance_after: await balance(id.mastera), reason: 'transfer_out', counterparty: 'plainp' });
    for (const [reader, target] of [
      ['suba1', 'mastera'],
      ['plainp', 'mastera'],
      ['suba1', 'plainp'],
      ['plainp', 'suba1x'],
      ['suba1x', 'suba1'],
    ]) {
      await expectStatus(tok[reader], { method: 'GET', url: `/api/resellers/${id[target]}/ledger` }, 404);
    }
    for (const reader of ['suba1x', 'suba1', 'mastera', 'admin']) {
      const res = (await expectStatus(tok[reader], { method: 'GET', url: `/api/resellers/${id.suba1x}/ledger` }, 200)).json();
      expect(res.data).toHaveLength(1);
      expect(res.data[0]).toMatchObject({ delta: 2, balance_after: 2, counterparty: 'suba1' });
    }
    await expectBalancesMatchLedger();
  });

  it('domains: host names and http(s) URLs are stored with a server-side token; anything else is 400; NULL clears', async () => {
    const url = `/api/resellers/${id.plainp}/add_domain`;
    const a = await expectStatus(tok.mastera, { method: 'PUT', url, payload: { dns_reseller: 'painel.example.com', username: 'plainp', token_id: 'client-chosen-token', owner: 'mastera' } }, 201);
    expect(a.json()).toMatchObject({ dns_reseller: 'painel.example.com', username: 'plainp', owner: 'mastera' });
    expect(a.json().token_id).toMatch(/^[0-9a-f]{32}$/);
    const b = await expectStatus(tok.mastera, { method: 'PUT', url, payload: { dns_reseller: 'https://tv.example.com/x' } }, 201);
    expect(b.json().dns_reseller).toBe('https://tv.example.com');
    expect(b.json().token_id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.json().token_id).not.toBe(a.json().token_id);
    const stored = await db().selectFrom('reseller_domains').select(['dns_reseller', 'token_id']).where('reseller_id', '=', id.plainp).orderBy('id').execute();
    expect(stored).toEqual([
      { dns_reseller: 'painel.example.com', token_id: a.json().token_id },
      { dns_reseller: 'https://tv.example.com', token_id: b.json().token_id },
    ]);

    const before = await snapshot();
    for (const bad of ['not a domain', 'javascript:alert(1)', 'ftp://x.com', 'http://', 'https://user:pw@tv.example.com', 'localhost', '<script>.com']) {
      const res = await expectStatus(tok.mastera, { method: 'PUT', url, payload: { dns_reseller: bad } }, 400);
      expect(res.json(), bad).toMatchObject({ code: 'VALIDATION', field: 'dns_reseller' });
    }
    expect(await snapshot()).toEqual(before);

    for (const reader of ['mastera', 'plainp', 'admin']) {
      const list = (await expectStatus(tok[reader], { method: 'GET', url: `/api/resellers/${id.plainp}/domains` }, 200)).json();
      expect(list.data.map((d: { dns_reseller: string }) => d.dns_reseller)).toEqual(['painel.example.com', 'https://tv.example.com']);
    }
    const cleared = await expectStatus(tok.mastera, { method: 'PUT', url, payload: { dns_reseller: 'NULL' } }, 201);
    expect(cleared.json()).toMatchObject({ dns_reseller: null, token_id: null });
    const empty = (await expectStatus(tok.mastera, { method: 'GET', url: `/api/resellers/${id.plainp}/domains` }, 200)).json();
    expect(empty.data).toEqual([]);
    const logs = (await logsAs(tok.mastera, `toreseller=${id.plainp}&actions=domain_add,domain_clear`)).json();
    expect(logs.data.map((l: { action: string }) => l.action).sort()).toEqual(['domain_add', 'domain_add', 'domain_clear']);
  });

  it('logs are scoped: masterb never sees what mastera or its subtree did, not even through filters', async () => {
    const out = new Set(['mastera', 'suba1', 'suba1x', 'plainp']);
    const all = (await logsAs(tok.masterb, '')).json();
    expect(all.meta.total).toBeGreaterThan(0);
    expect(all.meta.total).toBe(all.data.length);
    for (const l of all.data) {
      expect(out.has(l.user) || out.has(l.reseller) || out.has(l.toreseller), JSON.stringify(l)).toBe(false);
    }
    // masterb's own actions are there (so the check above is not vacuous)
    expect(all.data.some((l: { action: string; toreseller: string }) => l.action === 'reseller_create' && l.toreseller === 'subb1')).toBe(true);
    for (const q of [`reseller=${id.mastera}`, `toreseller=${id.plainp}`, 'actions=reseller_block', 'actions=domain_add', 'type=credits&actions=add_credits']) {
      const res = (await logsAs(tok.masterb, q)).json();
      for (const l of res.data) expect(out.has(l.user) || out.has(l.reseller) || out.has(l.toreseller), `?${q} ${JSON.stringify(l)}`).toBe(false);
    }
    expect((await logsAs(tok.masterb, `reseller=${id.mastera}`)).json().meta.total).toBe(0);
    expect((await logsAs(tok.masterb, `toreseller=${id.plainp}`)).json().meta.total).toBe(0);
    // ...while the admin does see mastera's actions
    expect((await logsAs(tok.admin, `reseller=${id.mastera}&actions=reseller_block`)).json().meta.total).toBe(1);
  });

  it('log filters type, actions, reseller, toreseller and dates work and combine; getoptions lists types and actions', async () => {
    const types = (await logsAs(tok.admin, 'type=credits')).json();
    expect(types.meta.total).toBeGreaterThan(0);
    expect(new Set(types.data.map((l: { type_log: string }) => l.type_log))).toEqual(new Set(['credits']));

    const actions = (await logsAs(tok.admin, 'actions=reseller_block,reseller_unblock')).json();
    expect(actions.data.map((l: { action: string }) => l.action).sort()).toEqual(['reseller_block', 'reseller_unblock']);

    const byActor = (await logsAs(tok.admin, `reseller=${id.mastera}`)).json();
    expect(byActor.meta.total).toBeGreaterThan(0);
    expect(new Set(byActor.data.map((l: { reseller: string }) => l.reseller))).toEqual(new Set(['mastera']));

    const toP = (await logsAs(tok.mastera, `toreseller=${id.plainp}`)).json();
    expect(new Set(toP.data.map((l: { toreseller: string }) => l.toreseller))).toEqual(new Set(['plainp']));
    expect(toP.data.map((l: { action: string }) => l.action)).toEqual(expect.arrayContaining(['reseller_create', 'reseller_block', 'reseller_unblock', 'add_credits']));

    // combined: the 11 single-credit transfers of the ledger test, and nothing else
    const combined = (await logsAs(tok.mastera, `type=credits&toreseller=${id.plainp}&reseller=${id.mastera}`)).json();
    expect(combined.meta.total).toBe(11);
    expect(combined.data.every((l: { action: string; value_int: number }) => l.action === 'add_credits' && l.value_int === 1)).toBe(true);

    const inWindow = (await logsAs(tok.admin, `dates=${blockWindow[0]},${blockWindow[1]}`)).json();
    expect(inWindow.data.map((l: { action: string }) => l.action)).toContain('reseller_block');
    for (const l of inWindow.data) {
      expect(l.created_at).toBeGreaterThanOrEqual(blockWindow[0]);
      expect(l.created_at).toBeLessThanOrEqual(blockWindow[1]);
    }
    expect((await logsAs(tok.admin, `dates=${blockWindow[0]},${blockWindow[1]}&actions=reseller_block`)).json().meta.total).toBe(1);
    expect((await logsAs(tok.admin, 'dates=0,1000')).json().meta.total).toBe(0);
    expect((await logsAs(tok.admin, `dates=${blockWindow[1] + 3_600_000},${blockWindow[1] + 7_200_000}`)).json().meta.total).toBe(0);

    const opts = (await expectStatus(tok.masterb, { method: 'GET', url: '/api/logs/getoptions' }, 200)).json();
    expect(opts.types).toEqual(expect.arrayContaining(['auth', 'reseller', 'credits']));
    const seen = new Set<string>((await logsAs(tok.admin, '')).json().data.map((l: { action: string }) => l.action));
    for (const a of ['reseller_create', 'reseller_update', 'reseller_block', 'reseller_unblock', 'reseller_to_master', 'add_credits', 'remove_credits', 'domain_add', 'domain_clear']) {
      expect(seen.has(a), `${a} was logged`).toBe(true);
    }
    for (const a of seen) expect(opts.actions, `getoptions lists ${a}`).toContain(a);
  });

  it('bad log dates are 400 VALIDATION on field dates', async () => {
    const wrong: string[] = [];
    for (const dates of ['abc', 'abc,def', '5,1', '1', '1,2,3', '-5,10', '1.5,2', '1,', ',100', ',']) {
      const res = await t.call(tok.admin, { method: 'GET', url: `/api/logs?dates=${encodeURIComponent(dates)}` });
      if (res.statusCode !== 400 || res.json().field !== 'dates') wrong.push(`dates=${dates} -> ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('malformed log filters and orderings are client errors, never 5xx', async () => {
    const wrong: string[] = [];
    for (const q of ['actions=,', 'actions=%20', 'actions=,,,', 'order_by=nope', 'order_by=constructor', 'order_by=__proto__,asc', 'order_by=toString,desc', 'order_by=id,sideways', 'reseller=abc', 'toreseller=-1', 'page=0', 'per=7']) {
      const res = await t.call(tok.masterb, { method: 'GET', url: `/api/logs?${q}` });
      // an empty actions list may be ignored (200) or refused (400); everything else here is a 400
      const ok = q.startsWith('actions') ? [200, 400].includes(res.statusCode) : res.statusCode === 400;
      if (!ok) wrong.push(`?${q} -> ${res.statusCode} ${res.json().code}`);
    }
    expect(wrong).toEqual([]);
  });

  it('deactivate: admin only; target must not be the reseller itself or below it; nothing changes on refusal', async () => {
    const before = await snapshot();
    const body = (targetId: number) => ({ reseller_id: id.mastera, type: 'transferall', target_id: targetId });
    const forbidden = await expectStatus(tok.mastera, { method: 'DELETE', url: `/api/resellers/${id.suba1}`, payload: { reseller_id: id.suba1, type: 'transferall', target_id: id.mastera } }, 403);
    expect(forbidden.json().code).toBe('FORBIDDEN');
    await expectStatus(tok.suba1, { method: 'DELETE', url: `/api/resellers/${id.suba1x}`, payload: { reseller_id: id.suba1x, type: 'transferall', target_id: id.suba1 } }, 403);
    for (const target of ['mastera', 'suba1', 'suba1x', 'plainp']) {
      const res = await expectStatus(tok.admin, { method: 'DELETE', url: `/api/resellers/${id.mastera}`, payload: body(id[target]) }, 400);
      expect(res.json(), `target ${target}`).toMatchObject({ code: 'VALIDATION', field: 'target_id' });
    }
    await expectStatus(tok.admin, { method: 'DELETE', url: `/api/resellers/${id.mastera}`, payload: body(MISSING_ID) }, 404);
    expect(await snapshot()).toEqual(before);
  });

  it('deactivate with transferall moves the whole subtree, the credits (ledger on both sides) and revokes sessions', async () => {
    // a line of the grandchild, written straight in: its top-level reseller is mastera until the move
    const now = nowSec();
    const moved = await db()
      .insertInto('lines')
      .values({ member_id: id.suba1x, username: 'moved_line', password: 'secret1', exp_date: now + 86_400, created_at: now, enabled: 1, is_trial: 0, max_connections: 1, bouquet: '[]', system: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const creditsA = await balance(id.mastera);
    const creditsB = await balance(id.masterb);
    expect(creditsA).toBeGreaterThan(0);
    const res = await expectStatus(tok.admin, { method: 'DELETE', url: `/api/resellers/${id.mastera}`, payload: { reseller_id: id.mastera, type: 'transferall', target_id: id.masterb } }, 200);
    expect(res.json()).toMatchObject({ credits_moved: creditsA, sub_resellers_moved: 2 });

    // credits: ledger rows on both sides, balances equal ledger sums
    expect(await balance(id.mastera)).toBe(0);
    expect(await balance(id.masterb)).toBe(creditsB + creditsA);
    const lastA = await db().selectFrom('credit_ledger').selectAll().where('reseller_id', '=', id.mastera).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const lastB = await db().selectFrom('credit_ledger').selectAll().where('reseller_id', '=', id.masterb).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(lastA).toMatchObject({ delta: -creditsA, balance_after: 0, reason: 'deactivate_out', counterparty_id: id.masterb });
    expect(lastB).toMatchObject({ delta: creditsA, balance_after: creditsB + creditsA, reason: 'deactivate_in', counterparty_id: id.mastera });
    await expectBalancesMatchLedger();

    // owners: direct children move, grandchildren stay under their own parent
    expect((await row(id.suba1)).owner_id).toBe(id.masterb);
    expect((await row(id.plainp)).owner_id).toBe(id.masterb);
    expect((await row(id.suba1x)).owner_id).toBe(id.suba1);

    // the target master now manages the whole moved subtree, grandchildren included
    expect(usernames(await listAs(tok.masterb))).toEqual(['plainp', 'suba1', 'suba1x', 'subb1']);
    const ss = (await expectStatus(tok.masterb, { method: 'POST', url: '/api/resellers/select_search', payload: { search: 'suba1x' } }, 200)).json();
    expect(ss.data).toEqual([{ label: 'suba1x', value: String(id.suba1x) }]);
    await expectStatus(tok.masterb, { method: 'GET', url: `/api/resellers/${id.suba1x}` }, 200);
    await expectStatus(tok.masterb, { method: 'POST', url: `/api/resellers/${id.suba1x}/credits`, payload: { value: 1 } }, 200);
    expect(usernames(await listAs(tok.suba1))).toEqual(['suba1x']);
    const depth = await db().selectFrom('reseller_tree').select('depth').where('ancestor_id', '=', id.masterb).where('descendant_id', '=', id.suba1x).executeTakeFirst();
    expect(depth?.depth).toBe(2);
    const underA = await db().selectFrom('reseller_tree').select('descendant_id').where('ancestor_id', '=', id.mastera).where('depth', '>=', 1).execute();
    expect(underA).toEqual([]);

    // the moved subtree's lines and history follow it: masterb's lines list (one range of its
    // top-level id) and its log page (two ranges of the logs' top columns) include them
    const tops = await db().selectFrom('lines').select('top_reseller_id').where('id', '=', moved.id).executeTakeFirstOrThrow();
    expect(tops.top_reseller_id).toBe(id.masterb);
    const masterbLines = (await expectStatus(tok.masterb, { method: 'GET', url: '/api/users?per=100' }, 200)).json();
    expect(masterbLines.data.map((l: { id: number }) => l.id)).toContain(moved.id);
    const subtreeB = (await db().selectFrom('reseller_tree').select('descendant_id').where('ancestor_id', '=', id.masterb).execute()).map((r) => r.descendant_id);
    const wantLogs = await logIdsInScope(db(), subtreeB);
    expect(wantLogs.length).toBeLessThanOrEqual(100);
    const seenLogs = (await logsAs(tok.masterb, '')).json();
    expect(seenLogs.data.map((r: { id: number }) => Number(r.id))).toEqual(wantLogs);
    expect(seenLogs.data.some((r: { reseller: string | null }) => r.reseller === 'suba1')).toBe(true);

    // the removed reseller: gone from lists and searches, 404, sessions revoked, cannot sign in
    expect(usernames(await listAs(tok.admin))).toEqual(['masterb', 'plainp', 'suba1', 'suba1x', 'subb1']);
    await expectStatus(tok.admin, { method: 'GET', url: `/api/resellers/${id.mastera}` }, 404);
    const search = (await expectStatus(tok.admin, { method: 'POST', url: '/api/resellers/select_search', payload: { search: 'mastera' } }, 200)).json();
    expect(search.data).toEqual([]);
    expect((await t.call(tok.mastera, { method: 'GET', url: '/api/profile' })).statusCode).toBe(401);
    const open = await db().selectFrom('sessions').select('id').where('reseller_id', '=', id.mastera).where('revoked_at', 'is', null).execute();
    expect(open).toEqual([]);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { username: 'mastera', password: PASS } });
    expect(signIn.statusCode).toBe(401);

    // its history stays in the logs
    const log = (await logsAs(tok.admin, 'actions=reseller_deactivate')).json();
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ toreseller: 'mastera', value_int: creditsA });
    expect((await logsAs(tok.admin, `reseller=${id.mastera}&type=credits`)).json().meta.total).toBeGreaterThan(0);

    // a second deactivation finds nothing and changes nothing
    const before = await snapshot();
    await expectStatus(tok.admin, { method: 'DELETE', url: `/api/resellers/${id.mastera}`, payload: { reseller_id: id.mastera, type: 'transferall', target_id: id.masterb } }, 404);
    expect(await snapshot()).toEqual(before);
  });
});
