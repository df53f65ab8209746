import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { addMonthsUtc } from './fixtures.ts';
import { ENGINE } from './helpers.ts';
import { type Actor, type P2pAccount, type P2pWorld, drained, p2pWorld } from './p2p-fixtures.ts';

// P2P accounts: what each route costs and the rules it follows (docs/rules.md), with
// the P2P server stand-in configured and the worker running.

const DAY = 86_400;

describe(`P2P accounts: costs and rules (${ENGINE})`, () => {
  let w: P2pWorld;
  let M: Actor;
  let R: Actor;
  const db = () => w.t.database.db;
  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers?: Record<string, string>) =>
    w.t.call(token, { method, url, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) });

  beforeAll(async () => {
    w = await p2pWorld();
    w.startWorker();
    M = await w.reseller('p2p_master', 'master', 100);
    R = await w.reseller('p2p_res', 'reseller', 50, M.token);
  });
  afterAll(() => w?.close());

  it('creates a paid account: screens x official_credits, login username@p2p_email_domain, delivered to the P2P server', async () => {
    const before = await w.balance(R.id);
    const res = await call(R.token, 'POST', '/api/p2p/users', { name: 'Maria', username: 'maria01', password: 'segredo1', package_id: w.family, whatsapp: '+55 11 90000-0000', notes: 'sala' });
    expect(res.statusCode, res.body).toBe(201);
    const a = res.json() as P2pAccount & { whatsapp: string; notes: string; package_id: number; master_username: string };
    expect(a).toMatchObject({ name: 'Maria', username: 'maria01', email: 'maria01@p2p.local', password: 'segredo1', status: 1, is_trial: 0, member_id: R.id, max_connections: 2, package_id: w.family, whatsapp: '+55 11 90000-0000', notes: 'sala', master_username: R.username });
    expect(['pending', 'synced']).toContain(a.sync_state);
    expect(a.expiracao).toBe(addMonthsUtc(a.created, 3));
    expect(await w.balance(R.id)).toBe(before - 6); // 2 screens x 3 credits
    expect(await w.ledgerSum(R.id)).toBe(await w.balance(R.id));
    const ledger = await db().selectFrom('credit_ledger').selectAll().where('p2p_account_id', '=', a.id).execute();
    expect(ledger).toMatchObject([{ reseller_id: R.id, delta: -6, reason: 'p2p_create', line_id: null }]);
    const log = await db().selectFrom('logs').selectAll().where('action', '=', 'p2p_create').where('target_user', '=', a.email).execute();
    expect(log).toMatchObject([{ type_log: 'p2p', actor_id: R.id, reseller_id: R.id, value: 'Family', value_int: 6 }]);

    await drained(w.t);
    expect(w.p2p.accounts.get('maria01@p2p.local')).toEqual({ name: 'Maria', password: 'segredo1', expires_at: a.expiracao, status: 1, max_connections: 2, is_trial: false });
    const fresh = (await call(R.token, 'GET', `/api/p2p/users/${a.id}`)).json();
    expect(fresh).toMatchObject({ sync_state: 'synced', sync_error: null });
    expect(fresh.synced_at).toBeGreaterThanOrEqual(a.created);
  });

  it('generates an empty username or password (6 to 9 characters), names the account after its username, follows the domain setting', async () => {
    await db().updateTable('settings').set({ value: 'tv.example.com' }).where('key', '=', 'p2p_email_domain').execute();
    try {
      const a = await w.account(R.token, { username: '', password: '' });
      expect(a.username).toMatch(/^[a-z0-9]{6,9}$/);
      expect(a.password).toMatch(/^[a-z0-9]{6,9}$/);
      expect(a.name).toBe(a.username);
      expect(a.email).toBe(`${a.username}@tv.example.com`);
    } finally {
      await db().updateTable('settings').set({ value: 'p2p.local' }).where('key', '=', 'p2p_email_domain').execute();
    }
  });

  it('refuses a taken username (any case, deleted accounts included) and a trial package, charging nothing', async () => {
    await w.account(R.token, { username: 'taken_one' });
    const before = await w.balance(R.id);
    for (const username of ['taken_one', 'TAKEN_ONE', 'maria01']) {
      const res = await call(R.token, 'POST', '/api/p2p/users', { name: 'x', username, package_id: w.cheap });
      expect(res.statusCode, username).toBe(409);
      expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN', field: 'username' });
    }
    const trial = await call(R.token, 'POST', '/api/p2p/users', { name: 'x', package_id: w.trialPkg });
    expect(trial.statusCode).toBe(400);
    expect(trial.json()).toMatchObject({ code: 'VALIDATION', field: 'package_id' });
    const screens = await call(R.token, 'POST', '/api/p2p/users', { name: 'x', package_id: w.cheap, max_connections: 2 }); // user_limit_screen is 1
    expect(screens.json()).toMatchObject({ code: 'VALIDATION', field: 'max_connections' });
    expect(await w.balance(R.id)).toBe(before);
  });

  it('an Idempotency-Key replays the creation instead of charging twice', async () => {
    const before = await w.balance(R.id);
    const body = { name: 'Rep', username: 'replayed', package_id: w.cheap };
    const first = await call(R.token, 'POST', '/api/p2p/users', body, { 'idempotency-key': 'p2p-create-1' });
    const again = await call(R.token, 'POST', '/api/p2p/users', body, { 'idempotency-key': 'p2p-create-1' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    expect(await w.balance(R.id)).toBe(before - 1);
    const other = await call(R.token, 'POST', '/api/p2p/users', { ...body, username: 'other' }, { 'idempotency-key': 'p2p-create-1' });
    expect(other.json().code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('admins create for free; masters pay for their own accounts', async () => {
    const adminBefore = await w.balance(1);
    const a = await w.account(w.admin, { username: 'admins_own' });
    expect(await w.balance(1)).toBe(adminBefore);
    expect(a.member_id).toBe(1);
    const mBefore = await w.balance(M.id);
    await w.account(M.token, { username: 'masters_own' });
    expect(await w.balance(M.id)).toBe(mBefore - 1);
  });

  it('trials: free, from a trial package only, within the daily trial limit', async () => {
    await db().updateTable('settings').set({ value: '2' }).where('key', '=', 'trial_limit_per_day').execute();
    const before = await w.balance(R.id);
    const trial = async (username: string) => call(R.token, 'POST', '/api/p2p/test_users', { name: 'Teste', username, package_id: w.trialPkg });
    const first = await trial('trial_a');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ is_trial: 1, status: 1, email: 'trial_a@p2p.local' });
    expect(first.json().expiracao - first.json().created).toBe(DAY);
    expect((await trial('trial_b')).statusCode).toBe(201);
    const third = await trial('trial_c');
    expect(third.statusCode).toBe(409);
    expect(third.json().code).toBe('TRIAL_LIMIT_REACHED');
    expect(await w.balance(R.id)).toBe(before);
    const paid = await call(R.token, 'POST', '/api/p2p/test_users', { name: 'x', package_id: w.cheap });
    expect(paid.json()).toMatchObject({ code: 'VALIDATION', field: 'package_id' });
    // admins are exempt
    for (const u of ['adm_t1', 'adm_t2', 'adm_t3']) expect((await call(w.admin, 'POST', '/api/p2p/test_users', { name: '', username: u, package_id: w.trialPkg })).statusCode).toBe(201);
    await db().updateTable('settings').set({ value: '5' }).where('key', '=', 'trial_limit_per_day').execute();
    await drained(w.t);
    expect(w.p2p.accounts.get('trial_a@p2p.local')?.is_trial).toBe(true);
  });

  it('edits name, username (the login moves: old removed, new created) and password', async () => {
    const a = await w.account(R.token, { name: 'Old name', username: 'before_rename', password: 'pw111111' });
    await drained(w.t);
    expect(w.p2p.accounts.has('before_rename@p2p.local')).toBe(true);
    const res = await call(R.token, 'PUT', `/api/p2p/users/${a.id}`, { name: 'New name', username: 'after_rename', password: 'pw222222' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'New name', username: 'after_rename', email: 'after_rename@p2p.local', password: 'pw222222', sync_state: 'pending' });
    await drained(w.t);
    expect(w.p2p.accounts.has('before_rename@p2p.local')).toBe(false);
    expect(w.p2p.accounts.get('after_rename@p2p.local')).toMatchObject({ name: 'New name', password: 'pw222222' });
    // empty fields change nothing; a taken username is a 409
    const same = await call(R.token, 'PUT', `/api/p2p/users/${a.id}`, { name: '', username: '', password: '' });
    expect(same.json()).toMatchObject({ name: 'New name', username: 'after_rename', password: 'pw222222' });
    const taken = await call(R.token, 'PUT', `/api/p2p/users/${a.id}`, { username: 'maria01' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('USERNAME_TAKEN');
    // the old username is free again, keeping the renamed account
    expect((await call(R.token, 'POST', '/api/p2p/users', { name: '', username: 'before_rename', package_id: w.cheap })).statusCode).toBe(201);
  });

  it('blocks and unblocks (status 0 / 1 on the P2P server)', async () => {
    const a = await w.account(R.token, { username: 'blockme' });
    const blocked = await call(R.token, 'POST', `/api/p2p/users/${a.id}/block`);
    expect(blocked.json().status).toBe(0);
    await drained(w.t);
    expect(w.p2p.accounts.get('blockme@p2p.local')?.status).toBe(0);
    const unblocked = await call(R.token, 'POST', `/api/p2p/users/${a.id}/unblock`);
    expect(unblocked.json().status).toBe(1);
    await drained(w.t);
    expect(w.p2p.accounts.get('blockme@p2p.local')?.status).toBe(1);
    const actions = await db().selectFrom('logs').select('action').where('target_user', '=', 'blockme@p2p.local').orderBy('id').execute();
    expect(actions.map((r) => r.action)).toEqual(['p2p_create', 'p2p_block', 'p2p_unblock']);
  });

  it('renews 1..12 months at 1 credit per month from the later of now and the expiry; 0 and 13 are refused', async () => {
    const a = await w.account(R.token, { username: 'renewme' });
    const before = await w.balance(R.id);
    const r3 = await call(R.token, 'POST', `/api/p2p/users/${a.id}/renew`, { months: 3 });
    expect(r3.statusCode, r3.body).toBe(200);
    expect(r3.json().expiracao).toBe(addMonthsUtc(a.expiracao, 3)); // stacked on the valid expiry
    expect(await w.balance(R.id)).toBe(before - 3);
    for (const months of [0, 13, -1, 1.5]) {
      const bad = await call(R.token, 'POST', `/api/p2p/users/${a.id}/renew`, { months });
      expect(bad.statusCode, `months ${months}`).toBe(400);
      expect(bad.json().field).toBe('months');
    }
    expect(await w.balance(R.id)).toBe(before - 3);
    // expired: from now
    await db().updateTable('p2p_accounts').set({ expires_at: nowSec() - 10 * DAY }).where('id', '=', a.id).execute();
    const t0 = nowSec();
    const r12 = (await call(R.token, 'POST', `/api/p2p/users/${a.id}/renew`, { months: 12 })).json();
    expect(r12.expiracao).toBeGreaterThanOrEqual(addMonthsUtc(t0, 12));
    expect(r12.expiracao).toBeLessThanOrEqual(addMonthsUtc(nowSec(), 12));
    expect(await w.balance(R.id)).toBe(before - 15);
    const ledger = await db().selectFrom('credit_ledger').select(['delta', 'reason']).where('p2p_account_id', '=', a.id).orderBy('id').execute();
    expect(ledger).toEqual([
      { delta: -1, reason: 'p2p_create' },
      { delta: -3, reason: 'p2p_renew' },
      { delta: -12, reason: 'p2p_renew' },
    ]);
    await drained(w.t);
    expect(w.p2p.accounts.get('renewme@p2p.local')?.expires_at).toBe(r12.expiracao);
  });

  it('a renewal the balance cannot cover changes nothing; a trial renewed becomes paid; Idempotency-Key replays', async () => {
    const poor = await w.reseller('p2p_poor', 'reseller', 2, M.token);
    const a = await w.account(poor.token, { username: 'poor_acc' });
    const bad = await call(poor.token, 'POST', `/api/p2p/users/${a.id}/renew`, { months: 2 });
    expect(bad.statusCode).toBe(409);
    expect(bad.json().code).toBe('INSUFFICIENT_CREDITS');
    expect((await call(poor.token, 'GET', `/api/p2p/users/${a.id}`)).json().expiracao).toBe(a.expiracao);
    expect(await w.balance(poor.id)).toBe(1);
    const t = (await call(poor.token, 'POST', '/api/p2p/test_users', { name: '', username: 'poor_trial', package_id: w.trialPkg })).json();
    const h = { 'idempotency-key': 'renew-trial' };
    const before = nowSec();
    const renewed = await call(poor.token, 'POST', `/api/p2p/users/${t.id}/renew`, { months: 1 }, h);
    expect(renewed.json()).toMatchObject({ is_trial: 0 });
    // its paid month starts now: the trial's remaining hours are not added
    expect(t.expiracao).toBeGreaterThan(nowSec());
    expect(renewed.json().expiracao).toBeGreaterThanOrEqual(addMonthsUtc(before, 1));
    expect(renewed.json().expiracao).toBeLessThanOrEqual(addMonthsUtc(nowSec(), 1));
    const replay = await call(poor.token, 'POST', `/api/p2p/users/${t.id}/renew`, { months: 1 }, h);
    expect(replay.json()).toEqual(renewed.json());
    expect(await w.balance(poor.id)).toBe(0);
    expect(await w.ledgerSum(poor.id)).toBe(0);
    // the reports: a paid account, a trial renewed into a paid one (its first paid term), the credits
    const totals = (await call(poor.token, 'GET', '/api/reports/sales')).json().totals;
    expect(totals).toEqual({ lines_created: 2, trials_created: 1, renewals: 0, credits_spent: 2, pix_payments: 0, pix_received_cents: 0, expired: 0 });
  });

  it('the reports count P2P accounts: created, renewed, removed before their expiry (not an expiry)', async () => {
    const r = await w.reseller('p2p_rep', 'reseller', 20, M.token);
    const a = await w.account(r.token, { username: 'rep_acc1' });
    const b = await w.account(r.token, { username: 'rep_acc2' });
    expect((await call(r.token, 'POST', `/api/p2p/users/${a.id}/renew`, { months: 2 })).statusCode).toBe(200);
    expect((await call(r.token, 'DELETE', `/api/p2p/users/${b.id}`)).statusCode).toBe(204);
    const sales = async (token: string, q = '') => (await call(token, 'GET', `/api/reports/sales${q}`)).json().totals;
    expect(await sales(r.token)).toEqual({ lines_created: 2, trials_created: 0, renewals: 1, credits_spent: 4, pix_payments: 0, pix_received_cents: 0, expired: 0 });
    // a whole year ahead: the kept expiry of a (moved by its renewal) is not counted before it comes
    const today = new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 10);
    const yearOn = new Date(Date.now() + 360 * DAY * 1000).toISOString().slice(0, 10);
    expect((await sales(r.token, `?from=${today}&to=${yearOn}&bucket=month`)).expired).toBe(0);
    expect(await sales(M.token, `?reseller_id=${r.id}`)).toEqual(await sales(r.token));
  });

  it('deletes: gone from the lists and the P2P server, its username stays reserved', async () => {
    const a = await w.account(R.token, { username: 'deleteme' });
    await drained(w.t);
    const del = await call(R.token, 'DELETE', `/api/p2p/users/${a.id}`);
    expect(del.statusCode).toBe(204);
    expect((await call(R.token, 'GET', `/api/p2p/users/${a.id}`)).statusCode).toBe(404);
    expect((await call(R.token, 'DELETE', `/api/p2p/users/${a.id}`)).statusCode).toBe(404);
    await drained(w.t);
    expect(w.p2p.accounts.has('deleteme@p2p.local')).toBe(false);
    expect((await call(R.token, 'POST', '/api/p2p/users', { name: '', username: 'deleteme', package_id: w.cheap })).json().code).toBe('USERNAME_TAKEN');
  });

  it('lists with paging, every filter and order_by on every column', async () => {
    const list = (q: string, token = R.token) => call(token, 'GET', `/api/p2p/users${q}`);
    const all = (await list('?per=100')).json();
    expect(all.meta).toMatchObject({ page: 1, per: 100, total: all.data.length, count: all.data.length, pages: 1 });
    expect(all.data.every((r: P2pAccount) => r.member_id === R.id)).toBe(true);
    const ids = all.data.map((r: P2pAccount) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a)); // newest first by default
    const paged = (await list('?per=10&page=2')).json();
    expect(paged.meta).toMatchObject({ page: 2, per: 10, total: all.data.length, pages: Math.ceil(all.data.length / 10) });

    const maria = all.data.find((r: P2pAccount) => r.username === 'maria01');
    expect((await list(`?id=${maria.id}`)).json().data.map((r: P2pAccount) => r.id)).toEqual([maria.id]);
    expect((await list('?username=MARIA')).json().data.map((r: P2pAccount) => r.username)).toEqual(['maria01']);
    expect((await list('?type_user=trial')).json().data.every((r: P2pAccount) => r.is_trial === 1)).toBe(true);
    expect((await list('?type_user=normal')).json().data.every((r: P2pAccount) => r.is_trial === 0)).toBe(true);
    const blocked = await w.account(R.token, { username: 'list_blocked' });
    await call(R.token, 'POST', `/api/p2p/users/${blocked.id}/block`);
    expect((await list('?status=0')).json().data.map((r: P2pAccount) => r.username)).toEqual(['list_blocked']);
    expect((await list('?status=1&per=100')).json().data.every((r: P2pAccount) => r.status === 1)).toBe(true);
    await db().updateTable('p2p_accounts').set({ expires_at: nowSec() - DAY }).where('id', '=', blocked.id).execute();
    expect((await list('?status=3')).json().data.map((r: P2pAccount) => r.username)).toEqual(['list_blocked']);
    await db().updateTable('p2p_accounts').set({ status: -1 }).where('id', '=', blocked.id).execute();
    expect((await list('?status=-1')).json().data.map((r: P2pAccount) => r.username)).toEqual(['list_blocked']);
    // the master sees its sub-reseller's accounts, and filters by owner
    expect((await list(`?reseller=${R.username}&per=100`, M.token)).json().meta.total).toBe((await list('?per=100')).json().meta.total);
    expect((await list('?reseller=nobody_here', M.token)).json().meta.total).toBe(0);

    const columns = ['id', 'name', 'username', 'email', 'password', 'externo_senha', 'created', 'expiracao', 'status', 'is_trial', 'member_id', 'master_username', 'package_id', 'max_connections', 'whatsapp', 'notes', 'sync_state', 'sync_error', 'synced_at'];
    for (const col of columns) {
      for (const dir of ['asc', 'desc']) {
        const res = await list(`?per=100&order_by=${col},${dir}`, M.token);
        expect(res.statusCode, `${col},${dir}: ${res.body}`).toBe(200);
        const values = res.json().data.map((r: Record<string, unknown>) => r[col]);
        const nonNull = values.filter((v: unknown) => v !== null);
        const sorted = [...nonNull].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        if (dir === 'desc') sorted.reverse();
        if (typeof nonNull[0] === 'number') expect(nonNull, `${col},${dir}`).toEqual(sorted);
      }
    }
    for (const bad of ['nope,asc', 'id,sideways', 'pa.id,asc']) {
      const res = await list(`?order_by=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().field).toBe('order_by');
    }
  });

  it('select_search finds accounts by username prefix in scope', async () => {
    const res = await call(M.token, 'POST', '/api/p2p/users/select_search', { search: 'mari' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([{ label: 'maria01@p2p.local', value: expect.any(String) }]);
    expect((await call(M.token, 'POST', '/api/p2p/users/select_search', { search: 'admins' })).json().data).toEqual([]);
  });

  it('lines: switching to P2P (2 or 3) provisions the line by its username, back to HTTP removes it; resync sends it again', async () => {
    const line = (await call(R.token, 'POST', '/api/users', { package_id: w.cheap, username: 'p2pline1', password: 'linepw1' })).json();
    expect(line.sync_state).toBeNull();
    const to2 = await call(R.token, 'POST', `/api/users/${line.id}/change_system`, { system_id: 2 });
    expect(to2.json()).toMatchObject({ system: 2, sync_state: 'pending' });
    await drained(w.t);
    expect(w.p2p.accounts.get('p2pline1')).toEqual({ name: 'p2pline1', password: 'linepw1', expires_at: line.exp_date, status: 1, max_connections: 1, is_trial: false });
    expect((await call(R.token, 'GET', `/api/users/${line.id}`)).json()).toMatchObject({ sync_state: 'synced', sync_error: null });
    const puts = () => w.p2p.received.filter((r) => r.login === 'p2pline1').length;
    const n = puts();
    await call(R.token, 'POST', `/api/users/${line.id}/change_system`, { system_id: 3 }); // still P2P, nothing new to say
    await call(R.token, 'PUT', `/api/users/${line.id}`, { reseller_notes: 'note only' });
    await drained(w.t);
    expect(puts()).toBe(n);
    // a P2P line's changes reach the server: renew, block, password
    await call(R.token, 'POST', `/api/users/${line.id}/renew`, { months: 1 });
    await call(R.token, 'POST', `/api/users/${line.id}/block`);
    await call(R.token, 'PUT', `/api/users/${line.id}`, { password: 'linepw2' });
    await drained(w.t);
    const fresh = (await call(R.token, 'GET', `/api/users/${line.id}`)).json();
    expect(w.p2p.accounts.get('p2pline1')).toEqual({ name: 'p2pline1', password: 'linepw2', expires_at: fresh.exp_date, status: 0, max_connections: 1, is_trial: false });
    // resync: the same state again; 'O usuário foi ressincronizado com sucesso!' on the web
    const resync = await call(R.token, 'POST', `/api/users/${line.id}/resync_p2p`);
    expect(resync.statusCode, resync.body).toBe(200);
    expect(resync.json()).toMatchObject({ id: line.id, sync_state: 'pending' });
    await drained(w.t);
    expect(puts()).toBe(n + 4);
    await call(R.token, 'POST', `/api/users/${line.id}/unblock`);
    await call(R.token, 'POST', `/api/users/${line.id}/change_system`, { system_id: 1 });
    await drained(w.t);
    expect(w.p2p.accounts.has('p2pline1')).toBe(false);
    const notP2p = await call(R.token, 'POST', `/api/users/${line.id}/resync_p2p`);
    expect(notP2p.statusCode).toBe(409);
    expect(notP2p.json().code).toBe('NOT_P2P');
    // a deleted P2P line is removed there too
    await call(R.token, 'POST', `/api/users/${line.id}/change_system`, { system_id: 2 });
    await call(R.token, 'DELETE', `/api/users/${line.id}`);
    await drained(w.t);
    expect(w.p2p.accounts.has('p2pline1')).toBe(false);
    const sent = w.p2p.applied.filter((r) => r.login === 'p2pline1').map((r) => r.method);
    expect(sent.slice(-2)).toEqual(['PUT', 'DELETE']);
  });

  it('the online list: scoped to the caller, cached 10 s', async () => {
    const row = (username: string) => ({ username, channel_name: 'Globo', duration: 3725, external_ip: '200.1.2.3', app_version: '1.0', app_name: 'P2P' });
    const line = (await call(M.token, 'POST', '/api/users', { package_id: w.cheap, username: 'online_line' })).json();
    await call(M.token, 'POST', `/api/users/${line.id}/change_system`, { system_id: 3 });
    w.p2p.online = [row('maria01@p2p.local'), row('online_line'), row('admins_own@p2p.local'), row('stranger@else.where')];
    const admin = await call(w.admin, 'GET', '/api/p2p/users/online');
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().data.map((r: { username: string }) => r.username)).toEqual(['maria01@p2p.local', 'online_line', 'admins_own@p2p.local', 'stranger@else.where']);
    expect(admin.json().data[0]).toEqual(row('maria01@p2p.local'));
    expect((await call(M.token, 'GET', '/api/p2p/users/online')).json().data.map((r: { username: string }) => r.username)).toEqual(['maria01@p2p.local', 'online_line']);
    expect((await call(R.token, 'GET', '/api/p2p/users/online')).json().data.map((r: { username: string }) => r.username)).toEqual(['maria01@p2p.local']);
    // cached: the stand-in's change shows only after 10 s
    const asked = w.p2p.received.filter((r) => r.path === '/online').length;
    w.p2p.online = [];
    expect((await call(w.admin, 'GET', '/api/p2p/users/online')).json().data).toHaveLength(4);
    expect(w.p2p.received.filter((r) => r.path === '/online').length).toBe(asked);
  });

  it('admins see the outbox: pending and failed counts with the last errors; others are refused', async () => {
    await drained(w.t);
    const empty = await call(w.admin, 'GET', '/api/admin/p2p/outbox');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({ configured: true, pending: 0, failed: 0, oldest: null, errors: [] });
    w.p2p.failWith(503);
    try {
      const a = await w.account(R.token, { username: 'while_failing' });
      // the worker's first attempt: up to 10 s on a loaded machine (was 100 polls, about 2 s)
      for (const until = Date.now() + 10_000; Date.now() < until && (await call(R.token, 'GET', `/api/p2p/users/${a.id}`)).json().sync_state !== 'failed'; ) await new Promise((r) => setTimeout(r, 20));
      const failing = (await call(R.token, 'GET', `/api/p2p/users/${a.id}`)).json();
      expect(failing).toMatchObject({ sync_state: 'failed', sync_error: expect.stringContaining('503') });
      const status = (await call(w.admin, 'GET', '/api/admin/p2p/outbox')).json();
      expect(status).toMatchObject({ failed: 1, pending: 0 });
      expect(status.errors[0]).toMatchObject({ login: 'while_failing@p2p.local', method: 'PUT', last_error: expect.stringContaining('503') });
      expect(status.errors[0].attempts).toBeGreaterThanOrEqual(1);
      for (const token of [M.token, R.token]) expect((await call(token, 'GET', '/api/admin/p2p/outbox')).statusCode).toBe(403);
    } finally {
      w.p2p.failWith(null);
    }
    await drained(w.t);
    expect(w.p2p.accounts.has('while_failing@p2p.local')).toBe(true);
    expect((await call(w.admin, 'GET', '/api/admin/p2p/outbox')).json()).toMatchObject({ pending: 0, failed: 0 });
  });

  it("a removed reseller's accounts go to the target with its lines", async () => {
    const gone = await w.reseller('p2p_gone', 'reseller', 5, M.token);
    const a = await w.account(gone.token, { username: 'orphan_acc' });
    const res = await call(w.admin, 'DELETE', `/api/resellers/${gone.id}`, { type: 'transferall', target_id: M.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(M.token, 'GET', `/api/p2p/users/${a.id}`)).json().member_id).toBe(M.id);
  });
});
