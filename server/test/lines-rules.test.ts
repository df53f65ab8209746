import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { addMonthsUtc, balanceOf, createBouquet, createPackage as createPkg, createSignedInReseller, groupIds, ledgerSumOf } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { Line, LinePage } from '../../web/src/api/types.ts';

const PASS = 'Str0ng-pass!';
const DAY = 86_400;

describe(`lines: costs and rules (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let adminId: number;
  let b1: number;
  let b2: number;
  const groups: Record<string, number> = {};
  const pk: Record<string, number> = {};

  const db = () => t.database.db;

  const createPackage = (name: string, extra: Record<string, unknown>) => createPkg(t, admin, name, b1, extra);

  async function reseller(username: string, credits = 0, type: 'master' | 'reseller' = 'reseller', by?: string) {
    return createSignedInReseller(t, by ?? admin, { username, password: PASS, type, credits, groups });
  }

  const balance = (id: number) => balanceOf(db(), id);
  const ledgerSum = (id: number) => ledgerSumOf(db(), id);
  const ledgerRows = (id: number) => db().selectFrom('credit_ledger').selectAll().where('reseller_id', '=', id).orderBy('id').execute();
  const lineRow = (id: number) => db().selectFrom('lines').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const setSetting = (key: string, value: string) => db().updateTable('settings').set({ value }).where('key', '=', key).execute();
  const setLine = (id: number, values: Record<string, unknown>) => db().updateTable('lines').set(values as never).where('id', '=', id).execute();

  async function create(token: string, body: Record<string, unknown>, status = 201, extra: Partial<InjectOptions> = {}) {
    const res = await t.call(token, { method: 'POST', url: '/api/users', payload: body, ...extra });
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  }
  async function trial(token: string, body: Record<string, unknown>, status = 201) {
    const res = await t.call(token, { method: 'POST', url: '/api/trial_users', payload: body });
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  }
  async function post(token: string, url: string, payload?: unknown, status = 200) {
    const res = await t.call(token, { method: 'POST', url, ...(payload === undefined ? {} : { payload: payload as never }) });
    expect(res.statusCode, `${url} ${res.body}`).toBe(status);
    return res.json();
  }
  async function listUsers(token: string, query: string) {
    const res = await t.call(token, { method: 'GET', url: `/api/users?per=100&${query}` });
    expect(res.statusCode, `${query} ${res.body}`).toBe(200);
    return res.json() as LinePage;
  }
  const names = (rows: { username: string }[]) => rows.map((r) => r.username).sort();

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    adminId = (await t.call(admin, { method: 'GET', url: '/api/profile' })).json().id;
    Object.assign(groups, await groupIds(t, admin));
    b1 = await createBouquet(t, admin, 'Sports');
    b2 = await createBouquet(t, admin, 'Kids');
    pk.std = await createPackage('Std 1 month x2', { official_credits: 2 });
    pk.cheap = await createPackage('Cheap 1 month x1', {});
    pk.months3 = await createPackage('Three months', { official_duration: 3 });
    pk.days7 = await createPackage('Seven days', { official_duration: 7, official_duration_in: 'days' });
    pk.hours12 = await createPackage('Twelve hours', { official_duration: 12, official_duration_in: 'hours' });
    pk.year = await createPackage('One year x3', { official_credits: 3, official_duration: 1, official_duration_in: 'years' });
    pk.multi = await createPackage('Two screens x3', { max_connections: 2, official_credits: 3 });
    pk.trial = await createPackage('Trial 24h', { is_trial: 1, is_official: 0, trial_duration: 24, trial_duration_in: 'hours', bouquets: [String(b2)] });
    pk.trial3d = await createPackage('Trial 3 days', { is_trial: 1, is_official: 0, trial_duration: 3, trial_duration_in: 'days' });
    pk.trialOfficial = await createPackage('Trial but official', { is_trial: 1, is_official: 1 });
    pk.unofficial = await createPackage('Not trial, not official', { is_trial: 0, is_official: 0 });
  });
  afterAll(() => t?.close());

  describe('creation', () => {
    it('charges screens x official_credits with a line_create ledger row; the profile balance drops', async () => {
      const r = await reseller('rcreate', 20);
      const line: Line = await create(r.token, { package_id: pk.std, whatsapp: '5511999990000', reseller_notes: 'first' });
      expect(line).toMatchObject({ member_id: r.id, master_username: 'rcreate', max_connections: 1, enabled: 1, is_trial: 0, system: 1, package_id: pk.std, bouquet: [String(b1)] });
      // The answer is built from the insert (no read back): it must be exactly what a read of the line answers.
      expect((await t.call(r.token, { method: 'GET', url: `/api/users/${line.id}` })).json()).toEqual(line);
      expect(await balance(r.id)).toBe(18);
      const rows = await ledgerRows(r.id);
      expect(rows.at(-1)).toMatchObject({ delta: -2, balance_after: 18, reason: 'line_create', line_id: line.id });
      const profile = (await t.call(r.token, { method: 'GET', url: '/api/profile' })).json();
      expect(profile.credits).toBe(18);

      // Three screens (the limit raised to 3) cost three times the package credits.
      await setSetting('user_limit_screen', '3');
      try {
        const three: Line = await create(r.token, { package_id: pk.std, max_connections: 3 });
        expect(three.max_connections).toBe(3);
        expect(await balance(r.id)).toBe(12);
        expect((await ledgerRows(r.id)).at(-1)).toMatchObject({ delta: -6, balance_after: 12, reason: 'line_create', line_id: three.id });
      } finally {
        await setSetting('user_limit_screen', '1');
      }
      expect(await ledgerSum(r.id)).toBe(await balance(r.id));
    });

    it('refuses a creation the balance cannot cover: 409 INSUFFICIENT_CREDITS, no line, nothing charged', async () => {
      const r = await reseller('rpoor', 2);
      await create(r.token, { package_id: pk.year, username: 'poorline' }, 409);
      expect(await balance(r.id)).toBe(2);
      expect(await db().selectFrom('lines').select('id').where('username', '=', 'poorline').executeTakeFirst()).toBeUndefined();
      expect(await ledgerRows(r.id)).toHaveLength(1); // the admin mint only
    });

    it('sets the expiry from official_duration and official_duration_in (months and years follow the calendar)', async () => {
      const r = await reseller('rdur', 50);
      const cases: [number, (created: number) => number][] = [
        [pk.std, (c) => addMonthsUtc(c, 1)],
        [pk.months3, (c) => addMonthsUtc(c, 3)],
        [pk.year, (c) => addMonthsUtc(c, 12)],
        [pk.days7, (c) => c + 7 * DAY],
        [pk.hours12, (c) => c + 12 * 3600],
      ];
      for (const [pkgId, expected] of cases) {
        const before = nowSec();
        const line: Line = await create(r.token, { package_id: pkgId });
        expect(line.created_at).toBeGreaterThanOrEqual(before);
        expect(line.created_at).toBeLessThanOrEqual(nowSec());
        expect(line.exp_date, `package ${pkgId}`).toBe(expected(line.created_at));
      }
      // 2 + 1 + 3 + 1 + 1
      expect(await balance(r.id)).toBe(50 - 8);
    });

    it('never charges an admin, for any operation', async () => {
      const before = await balance(adminId);
      const ledgerBefore = (await ledgerRows(adminId)).length;
      await setSetting('user_limit_screen', '3');
      try {
        const a: Line = await create(admin, { package_id: pk.year });
        expect(a.member_id).toBe(adminId);
        const m: Line = await create(admin, { package_id: pk.multi });
        expect(m.max_connections).toBe(2);
        await post(admin, `/api/users/${a.id}/renew`, { months: 1 });
        await post(admin, `/api/users/${a.id}/renew`, { package_id: pk.year });
        await post(admin, `/api/users/${a.id}/screens`, { amount: 2 });
        expect((await lineRow(a.id)).max_connections).toBe(3);
      } finally {
        await setSetting('user_limit_screen', '1');
      }
      expect(await balance(adminId)).toBe(before);
      expect(await ledgerRows(adminId)).toHaveLength(ledgerBefore);
    });

    it('generates empty or missing credentials: 6 to 9 lowercase letters/digits, unique', async () => {
      const usernames = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const body = i % 2 === 0 ? { package_id: pk.cheap, username: '', password: '' } : { package_id: pk.cheap };
        const line: Line = await create(admin, body);
        expect(line.username).toMatch(/^[a-z0-9]{6,9}$/);
        expect(line.password).toMatch(/^[a-z0-9]{6,9}$/);
        usernames.add(line.username);
      }
      const tr: Line = await trial(admin, { package_id: pk.trial, username: '', password: '' });
      expect(tr.username).toMatch(/^[a-z0-9]{6,9}$/);
      expect(tr.password).toMatch(/^[a-z0-9]{6,9}$/);
      usernames.add(tr.username);
      expect(usernames.size).toBe(9);
      const stored = await db().selectFrom('lines').select('username').where('username', 'in', [...usernames]).execute();
      expect(stored).toHaveLength(9);
    });

    it('refuses a taken username with 409 USERNAME_TAKEN and charges nothing', async () => {
      const a = await reseller('rdup1', 10);
      const b = await reseller('rdup2', 10);
      await create(a.token, { package_id: pk.cheap, username: 'takenname', password: 'pw12345' });
      for (const attempt of [
        () => t.call(b.token, { method: 'POST', url: '/api/users', payload: { package_id: pk.cheap, username: 'takenname' } }),
        () => t.call(b.token, { method: 'POST', url: '/api/trial_users', payload: { package_id: pk.trial, username: 'takenname' } }),
      ]) {
        const res = await attempt();
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({ code: 'USERNAME_TAKEN', field: 'username' });
      }
      expect(await balance(b.id)).toBe(10);
      expect(await ledgerRows(b.id)).toHaveLength(1);
      expect(await db().selectFrom('lines').select('id').where('member_id', '=', b.id).execute()).toHaveLength(0);
    });

    it('takes only non-trial packages for lines and only trial, non-official packages for trials (400 package_id)', async () => {
      const r = await reseller('rpkg', 20);
      for (const pkgId of [pk.trial, pk.trial3d, pk.trialOfficial, 999_999]) {
        const body = await create(r.token, { package_id: pkgId }, 400);
        expect(body.field, `line with package ${pkgId}`).toBe('package_id');
      }
      for (const pkgId of [pk.std, pk.unofficial, pk.trialOfficial, 999_999]) {
        const body = await trial(r.token, { package_id: pkgId }, 400);
        expect(body.field, `trial with package ${pkgId}`).toBe('package_id');
      }
      expect(await balance(r.id)).toBe(20);
      expect(await db().selectFrom('lines').select('id').where('member_id', '=', r.id).execute()).toHaveLength(0);
      // the non-official, non-trial package is fine for a normal line
      const ok: Line = await create(r.token, { package_id: pk.unofficial });
      expect(ok.package_id).toBe(pk.unofficial);
    });

    it('max_connections defaults to 1 and must stay within 1..user_limit_screen', async () => {
      const r = await reseller('rscreens', 30);
      const one: Line = await create(r.token, { package_id: pk.cheap });
      expect(one.max_connections).toBe(1);
      const refused = await create(r.token, { package_id: pk.cheap, max_connections: 2 }, 400);
      expect(refused.field).toBe('max_connections');
      await create(r.token, { package_id: pk.cheap, max_connections: 0 }, 400);
      expect(await balance(r.id)).toBe(29);
      await setSetting('user_limit_screen', '3');
      try {
        const three: Line = await create(r.token, { package_id: pk.cheap, max_connections: 3 });
        expect(three.max_connections).toBe(3);
        expect(await balance(r.id)).toBe(26);
        expect((await create(r.token, { package_id: pk.cheap, max_connections: 4 }, 400)).field).toBe('max_connections');
      } finally {
        await setSetting('user_limit_screen', '1');
      }
      expect(await balance(r.id)).toBe(26);
    });

    it("fixes the screens to the package's max_connections when that is 2 or more", async () => {
      const r = await reseller('rmulti', 30);
      // even above the screen limit (1) and whatever the request says
      const a: Line = await create(r.token, { package_id: pk.multi });
      const b: Line = await create(r.token, { package_id: pk.multi, max_connections: 1 });
      expect([a.max_connections, b.max_connections]).toEqual([2, 2]);
      expect(await balance(r.id)).toBe(30 - 2 * 6);
      expect((await ledgerRows(r.id)).slice(-2).map((l) => l.delta)).toEqual([-6, -6]);
    });
  });

  describe('trials', () => {
    it('are free, last the trial duration and take the package bouquets', async () => {
      const r = await reseller('rtrial', 0);
      const a: Line = await trial(r.token, { package_id: pk.trial, whatsapp: '5511900000000' });
      expect(a).toMatchObject({ is_trial: 1, member_id: r.id, package_id: pk.trial, bouquet: [String(b2)], whatsapp: '5511900000000' });
      expect((await t.call(r.token, { method: 'GET', url: `/api/users/${a.id}` })).json()).toEqual(a);
      expect(a.exp_date - a.created_at).toBe(24 * 3600);
      const b: Line = await trial(r.token, { package_id: pk.trial3d });
      expect(b.exp_date - b.created_at).toBe(3 * DAY);
      expect(await balance(r.id)).toBe(0);
      expect(await ledgerRows(r.id)).toHaveLength(0);
    });

    it('are limited per reseller per day by trial_limit_per_day', async () => {
      await setSetting('trial_limit_per_day', '2');
      try {
        const r = await reseller('rtlimit');
        const other = await reseller('rtlimit2');
        const first: Line = await trial(r.token, { package_id: pk.trial });
        const second: Line = await trial(r.token, { package_id: pk.trial });
        const third = await trial(r.token, { package_id: pk.trial }, 409);
        expect(third.code).toBe('TRIAL_LIMIT_REACHED');
        expect(await db().selectFrom('lines').select('id').where('member_id', '=', r.id).execute()).toHaveLength(2);
        // another reseller has its own allowance
        await trial(other.token, { package_id: pk.trial });
        // trials from two days ago no longer count
        await setLine(first.id, { created_at: nowSec() - 2 * DAY });
        await setLine(second.id, { created_at: nowSec() - 2 * DAY });
        await trial(r.token, { package_id: pk.trial });
      } finally {
        await setSetting('trial_limit_per_day', '5');
      }
    });
  });

  describe('renewals', () => {
    it('flash renew charges max_connections credits and adds one calendar month to a future expiry', async () => {
      const r = await reseller('rflash', 20);
      const line: Line = await create(r.token, { package_id: pk.multi }); // 2 screens, 6 credits
      expect(await balance(r.id)).toBe(14);
      const renewed: Line = await post(r.token, `/api/users/${line.id}/renew`, { months: 1 });
      expect(renewed.exp_date).toBe(addMonthsUtc(line.exp_date, 1));
      expect(await balance(r.id)).toBe(12);
      expect((await ledgerRows(r.id)).at(-1)).toMatchObject({ delta: -2, balance_after: 12, line_id: line.id });
      // the original spelling `mounth` works too
      const again: Line = await post(r.token, `/api/users/${line.id}/renew`, { mounth: 1 });
      expect(again.exp_date).toBe(addMonthsUtc(renewed.exp_date, 1)); // on the expiry the first renewal left (a clamped day stays clamped)
      expect(await balance(r.id)).toBe(10);
      expect((await lineRow(line.id)).exp_date).toBe(again.exp_date);
      expect(await ledgerSum(r.id)).toBe(10);
    });

    it('flash renew of an expired line counts the month from now', async () => {
      const r = await reseller('rflashold', 5);
      const line: Line = await create(r.token, { package_id: pk.cheap });
      await setLine(line.id, { exp_date: nowSec() - 10 * DAY });
      const before = nowSec();
      const renewed: Line = await post(r.token, `/api/users/${line.id}/renew`, { months: 1 });
      const after = nowSec();
      expect(renewed.exp_date).toBeGreaterThanOrEqual(addMonthsUtc(before, 1));
      expect(renewed.exp_date).toBeLessThanOrEqual(addMonthsUtc(after, 1));
      expect(await balance(r.id)).toBe(3);
    });

    it('renew by package charges screens x official_credits, stacks on a future expiry, else starts now', async () => {
      const r = await reseller('rrenew', 40);
      const line: Line = await create(r.token, { package_id: pk.cheap }); // 1 credit
      const byYear: Line = await post(r.token, `/api/users/${line.id}/renew`, { package_id: pk.year });
      expect(byYear.exp_date).toBe(addMonthsUtc(line.exp_date, 12));
      expect(byYear.package_id).toBe(pk.year);
      expect(await balance(r.id)).toBe(40 - 1 - 3);
      expect((await ledgerRows(r.id)).at(-1)).toMatchObject({ delta: -3, balance_after: 36, line_id: line.id });

      // a two-screen package: 2 x 3 credits
      const byMulti: Line = await post(r.token, `/api/users/${line.id}/renew`, { package_id: pk.multi });
      expect(byMulti.max_connections).toBe(2);
      expect(byMulti.exp_date).toBe(addMonthsUtc(byYear.exp_date, 1));
      expect(await balance(r.id)).toBe(30);

      // expired: the package duration counts from now; 2 screens x 1 credit
      await setLine(line.id, { exp_date: nowSec() - 5 * DAY });
      const before = nowSec();
      const fromNow: Line = await post(r.token, `/api/users/${line.id}/renew`, { package_id: pk.days7 });
      expect(fromNow.exp_date).toBeGreaterThanOrEqual(before + 7 * DAY);
      expect(fromNow.exp_date).toBeLessThanOrEqual(nowSec() + 7 * DAY);
      expect(await balance(r.id)).toBe(28);
      expect(await ledgerSum(r.id)).toBe(28);
    });

    it('refuses trial packages and unaffordable renewals without changing the line', async () => {
      const r = await reseller('rrenewno', 3);
      const line: Line = await create(r.token, { package_id: pk.cheap });
      const stored = await lineRow(line.id);
      expect((await post(r.token, `/api/users/${line.id}/renew`, { package_id: pk.trial }, 400)).field).toBe('package_id');
      expect((await post(r.token, `/api/users/${line.id}/renew`, { package_id: pk.year }, 409)).code).toBe('INSUFFICIENT_CREDITS');
      await post(r.token, `/api/users/${line.id}/renew`, { package_id: pk.cheap, months: 1 }, 400);
      await post(r.token, `/api/users/${line.id}/renew`, {}, 400);
      expect(await lineRow(line.id)).toEqual(stored);
      expect(await balance(r.id)).toBe(2);
    });
  });

  describe('extend days', () => {
    it('adds 1..3 free days, once per 30 days', async () => {
      const r = await reseller('rextend', 1);
      const line: Line = await create(r.token, { package_id: pk.cheap });
      expect(await balance(r.id)).toBe(0);
      const ext: Line = await post(r.token, `/api/users/${line.id}/extenddays`, { days: 3 });
      expect(ext.exp_date).toBe(line.exp_date + 3 * DAY);
      const again = await post(r.token, `/api/users/${line.id}/extenddays`, { days: 1 }, 409);
      expect(again.code).toBe('EXTEND_LIMIT_REACHED');
      expect((await lineRow(line.id)).exp_date).toBe(ext.exp_date);
      // 29 days later: still refused; 31 days later: allowed again
      await setLine(line.id, { last_extended_at: nowSec() - 29 * DAY });
      await post(r.token, `/api/users/${line.id}/extenddays`, { days: 1 }, 409);
      await setLine(line.id, { last_extended_at: nowSec() - 31 * DAY });
      const later: Line = await post(r.token, `/api/users/${line.id}/extenddays`, { days: 1 });
      expect(later.exp_date).toBe(ext.exp_date + DAY);
      expect(await balance(r.id)).toBe(0);
      expect(await ledgerRows(r.id)).toHaveLength(2); // mint and creation only
    });

    it("refuses days outside 1..3 with 'Please enter the days correctly (between 1 and 3).'", async () => {
      const line: Line = await create(admin, { package_id: pk.cheap });
      for (const days of [0, 4, -1]) {
        const body = await post(admin, `/api/users/${line.id}/extenddays`, { days }, 400);
        expect(body.message, `days ${days}`).toBe('Please enter the days correctly (between 1 and 3).');
      }
      const row = await lineRow(line.id);
      expect(row.exp_date).toBe(line.exp_date);
      expect(row.last_extended_at).toBeNull();
    });
  });

  describe('screens', () => {
    it('adding costs amount x months remaining (rounded up); removing refunds nothing; stays within 1..user_limit_screen', async () => {
      const r = await reseller('rscr', 20);
      const line: Line = await create(r.token, { package_id: pk.cheap });
      await setLine(line.id, { exp_date: nowSec() + 45 * DAY });
      await setSetting('user_limit_screen', '3');
      try {
        const up: Line = await post(r.token, `/api/users/${line.id}/screens`, { amount: 2 });
        expect(up.max_connections).toBe(3);
        expect(await balance(r.id)).toBe(19 - 4); // 2 screens x 2 months
        expect((await ledgerRows(r.id)).at(-1)).toMatchObject({ delta: -4, balance_after: 15, line_id: line.id });
        expect((await post(r.token, `/api/users/${line.id}/screens`, { amount: 1 }, 400)).field).toBe('amount');
        const down: Line = await post(r.token, `/api/users/${line.id}/screens`, { amount: -2 });
        expect(down.max_connections).toBe(1);
        expect(await balance(r.id)).toBe(15);
        await post(r.token, `/api/users/${line.id}/screens`, { amount: -1 }, 400);
        await post(r.token, `/api/users/${line.id}/screens`, { amount: 0 }, 400);
        // 75 days left: 3 months
        await setLine(line.id, { exp_date: nowSec() + 75 * DAY });
        await post(r.token, `/api/users/${line.id}/screens`, { amount: 1 });
        expect(await balance(r.id)).toBe(12);
        expect((await lineRow(line.id)).max_connections).toBe(2);
      } finally {
        await setSetting('user_limit_screen', '1');
      }
      expect(await ledgerSum(r.id)).toBe(12);
    });

    it('with the default limit of 1 no screen can be added', async () => {
      const r = await reseller('rscr1', 5);
      const line: Line = await create(r.token, { package_id: pk.cheap });
      await post(r.token, `/api/users/${line.id}/screens`, { amount: 1 }, 400);
      expect((await lineRow(line.id)).max_connections).toBe(1);
      expect(await balance(r.id)).toBe(4);
    });

    it('are not managed on trials (409 TRIAL_NOT_ALLOWED)', async () => {
      const r = await reseller('rscrtrial', 10);
      const tr: Line = await trial(r.token, { package_id: pk.trial });
      await setSetting('user_limit_screen', '3');
      try {
        expect((await post(r.token, `/api/users/${tr.id}/screens`, { amount: 1 }, 409)).code).toBe('TRIAL_NOT_ALLOWED');
      } finally {
        await setSetting('user_limit_screen', '1');
      }
      expect((await lineRow(tr.id)).max_connections).toBe(1);
      expect(await balance(r.id)).toBe(10);
    });
  });

  describe('state and edits', () => {
    it('block and unblock; the system changes only while enabled', async () => {
      const line: Line = await create(admin, { package_id: pk.cheap });
      const blocked: Line = await post(admin, `/api/users/${line.id}/block`);
      expect(blocked.enabled).toBe(0);
      expect((await lineRow(line.id)).enabled).toBe(0);
      expect((await post(admin, `/api/users/${line.id}/change_system`, { system_id: 2 }, 409)).code).toBe('LINE_BLOCKED');
      expect((await lineRow(line.id)).system).toBe(1);
      const unblocked: Line = await post(admin, `/api/users/${line.id}/unblock`);
      expect(unblocked.enabled).toBe(1);
      for (const system of [2, 3, 1]) {
        const changed: Line = await post(admin, `/api/users/${line.id}/change_system`, { system_id: system });
        expect(changed.system).toBe(system);
        expect((await lineRow(line.id)).system).toBe(system);
      }
      for (const system_id of [4, 0]) await post(admin, `/api/users/${line.id}/change_system`, { system_id }, 400);
      expect((await lineRow(line.id)).system).toBe(1);
    });

    it('PUT edits password, whatsapp, notes and bouquets; an empty bouquet list is refused', async () => {
      const line: Line = await create(admin, { package_id: pk.cheap, password: 'oldpass1' });
      const res = await t.call(admin, {
        method: 'PUT',
        url: `/api/users/${line.id}`,
        payload: { password: 'newpass2', whatsapp: '5521988887777', reseller_notes: 'paid cash', bouquet: [String(b1), String(b2)] },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ password: 'newpass2', whatsapp: '5521988887777', reseller_notes: 'paid cash', bouquet: [String(b1), String(b2)] });
      const stored = await lineRow(line.id);
      const empty = await t.call(admin, { method: 'PUT', url: `/api/users/${line.id}`, payload: { bouquet: [], password: 'other123' } });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('You must select at least 1 bouquet');
      const unknown = await t.call(admin, { method: 'PUT', url: `/api/users/${line.id}`, payload: { bouquet: ['999999'] } });
      expect(unknown.statusCode).toBe(400);
      expect(await lineRow(line.id)).toEqual(stored);
    });

    it('DELETE removes the line: 404 afterwards, gone from the lists, nothing can be charged on it', async () => {
      const r = await reseller('rdel', 5);
      const line: Line = await create(r.token, { package_id: pk.cheap });
      expect((await listUsers(r.token, '')).meta.total).toBe(1);
      const del = await t.call(r.token, { method: 'DELETE', url: `/api/users/${line.id}` });
      expect(del.statusCode).toBe(204);
      expect((await t.call(r.token, { method: 'GET', url: `/api/users/${line.id}` })).statusCode).toBe(404);
      expect((await listUsers(r.token, '')).meta.total).toBe(0);
      expect((await listUsers(admin, `id=${line.id}`)).meta.total).toBe(0);
      const expiring = (await t.call(r.token, { method: 'GET', url: '/api/users/expiring' })).json();
      expect(expiring.meta.total).toBe(0);
      await post(r.token, `/api/users/${line.id}/renew`, { months: 1 }, 404);
      expect((await t.call(r.token, { method: 'DELETE', url: `/api/users/${line.id}` })).statusCode).toBe(404);
      expect(await balance(r.id)).toBe(4);
    });
  });

  describe('list', () => {
    // A master `flm` with two sub-resellers; listed as flm, only these lines are in scope.
    const L: Record<string, Line> = {};
    let master: { id: number; token: string };

    beforeAll(async () => {
      master = await reseller('flm', 100, 'master');
      const fla = await reseller('fla', 20, 'reseller', master.token);
      const flb = await reseller('flb', 20, 'reseller', master.token);
      L.alpha01 = await create(master.token, { package_id: pk.cheap, username: 'alpha01', reseller_notes: 'vip customer', whatsapp: '5511911112222' });
      L.alphabet = await create(master.token, { package_id: pk.cheap, username: 'alphabet' });
      L.betaone = await create(fla.token, { package_id: pk.cheap, username: 'betaone', reseller_notes: 'ALPHA team' });
      L.xalpha = await create(fla.token, { package_id: pk.cheap, username: 'xalpha' });
      L.gamma1 = await create(flb.token, { package_id: pk.cheap, username: 'gamma1', whatsapp: '5521987650000' });
      L.gammatrial = await trial(flb.token, { package_id: pk.trial, username: 'gammatrial' });
      // an outsider's line that matches every filter text
      const outsider = await reseller('outsider', 5);
      await create(outsider.token, { package_id: pk.cheap, username: 'alphaout', reseller_notes: 'alpha', whatsapp: '5521987650001' });

      const now = nowSec();
      const day = (iso: string) => Date.parse(iso) / 1000;
      await setLine(L.alpha01.id, { created_at: day('2025-01-10T10:00:00Z') });
      await setLine(L.alphabet.id, { created_at: day('2025-01-11T23:59:59Z'), enabled: 0 });
      await setLine(L.betaone.id, { created_at: day('2025-01-12T00:00:00Z'), exp_date: now - DAY });
      await setLine(L.xalpha.id, { enabled: 0, exp_date: now - 2 * DAY });
    });

    const ids = (rows: Line[]) => rows.map((r) => r.id);

    it('filters by id, username prefix, text_search and owner', async () => {
      expect(ids((await listUsers(master.token, `id=${L.xalpha.id}`)).data)).toEqual([L.xalpha.id]);
      expect(names((await listUsers(master.token, '')).data)).toEqual(['alpha01', 'alphabet', 'betaone', 'gamma1', 'gammatrial', 'xalpha']);
      expect(names((await listUsers(master.token, 'username=alpha')).data)).toEqual(['alpha01', 'alphabet']);
      expect(names((await listUsers(master.token, 'username=ALPHAB')).data)).toEqual(['alphabet']);
      // username, notes (any case) and whatsapp
      expect(names((await listUsers(master.token, 'text_search=alpha')).data)).toEqual(['alpha01', 'alphabet', 'betaone', 'xalpha']);
      expect(names((await listUsers(master.token, 'text_search=vip')).data)).toEqual(['alpha01']);
      expect(names((await listUsers(master.token, 'text_search=98765')).data)).toEqual(['gamma1']);
      expect(names((await listUsers(master.token, 'reseller=fla')).data)).toEqual(['betaone', 'xalpha']);
      expect(names((await listUsers(master.token, 'reseller=flm')).data)).toEqual(['alpha01', 'alphabet']);
      expect((await listUsers(master.token, 'reseller=nobody')).meta.total).toBe(0);
      expect((await listUsers(master.token, 'reseller=outsider')).meta.total).toBe(0);
      // combined filters intersect
      expect(names((await listUsers(master.token, 'text_search=alpha&reseller=fla')).data)).toEqual(['betaone', 'xalpha']);
      // a prefix with an owner: one letter reads the owner's lines, two or more the prefix's
      expect(names((await listUsers(master.token, 'username=b&reseller=fla')).data)).toEqual(['betaone']);
      expect(names((await listUsers(master.token, 'username=XA&reseller=fla')).data)).toEqual(['xalpha']);
      expect(names((await listUsers(master.token, 'username=alpha&reseller=flm')).data)).toEqual(['alpha01', 'alphabet']);
      expect((await listUsers(master.token, 'username=alpha&reseller=fla')).meta.total).toBe(0);
      expect((await listUsers(master.token, 'username=alphaout&reseller=outsider')).meta.total).toBe(0);
      // a prefix ending in U+FFFF has no upper bound to write (one past it is a NUL PostgreSQL refuses)
      for (const url of ['/api/users?username=a%EF%BF%BF', '/api/p2p/users?username=%EF%BF%BF']) {
        const res = await t.call(master.token, { method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.json().meta.total, url).toBe(0);
      }
    });

    it('text_search follows edits and removals (the trigram index is kept in the same transaction)', async () => {
      const line: Line = await create(master.token, { package_id: pk.cheap, username: 'searchme', reseller_notes: 'Paid in Cash' });
      expect(names((await listUsers(master.token, 'text_search=in cash')).data)).toEqual(['searchme']);
      const put = await t.call(master.token, { method: 'PUT', url: `/api/users/${line.id}`, payload: { reseller_notes: 'card', whatsapp: '5531977776666' } });
      expect(put.statusCode, put.body).toBe(200);
      expect((await listUsers(master.token, 'text_search=in cash')).meta.total).toBe(0);
      expect(names((await listUsers(master.token, 'text_search=977776')).data)).toEqual(['searchme']);
      expect(names((await listUsers(master.token, 'text_search=CARD')).data)).toEqual(['searchme']);
      // a quote or FTS syntax in the term is text, never a query error
      expect((await listUsers(master.token, `text_search=${encodeURIComponent('"car" OR x*')}`)).meta.total).toBe(0);
      expect((await t.call(master.token, { method: 'DELETE', url: `/api/users/${line.id}` })).statusCode).toBe(204);
      expect((await listUsers(master.token, 'text_search=977776')).meta.total).toBe(0);
    });

    it('filters by creation day or day range (UTC, inclusive); a bad value is a 400', async () => {
      expect(names((await listUsers(master.token, 'created=2025-01-11')).data)).toEqual(['alphabet']);
      expect(names((await listUsers(master.token, 'created=2025-01-10,2025-01-11')).data)).toEqual(['alpha01', 'alphabet']);
      expect(names((await listUsers(master.token, 'created=2025-01-11,2025-01-12')).data)).toEqual(['alphabet', 'betaone']);
      expect((await listUsers(master.token, 'created=2025-01-09')).meta.total).toBe(0);
      for (const bad of ['2025-1-10', 'yesterday', '2025-01-12,2025-01-10', '2025-01-10,2025-01-11,2025-01-12', '2025-13-01']) {
        const res = await t.call(master.token, { method: 'GET', url: `/api/users?created=${encodeURIComponent(bad)}` });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().field, bad).toBe('created');
      }
    });

    it('filters by type_user and status (1 active, 4 not expired, 3 expired, 0 blocked)', async () => {
      expect(names((await listUsers(master.token, 'type_user=trial')).data)).toEqual(['gammatrial']);
      expect(names((await listUsers(master.token, 'type_user=normal')).data)).toEqual(['alpha01', 'alphabet', 'betaone', 'gamma1', 'xalpha']);
      expect(names((await listUsers(master.token, 'status=1')).data)).toEqual(['alpha01', 'gamma1', 'gammatrial']);
      expect(names((await listUsers(master.token, 'status=4')).data)).toEqual(['alpha01', 'alphabet', 'gamma1', 'gammatrial']);
      expect(names((await listUsers(master.token, 'status=3')).data)).toEqual(['betaone', 'xalpha']);
      expect(names((await listUsers(master.token, 'status=0')).data)).toEqual(['alphabet', 'xalpha']);
      expect(names((await listUsers(master.token, 'status=3&type_user=normal&reseller=fla')).data)).toEqual(['betaone', 'xalpha']);
      for (const bad of ['status=2', 'type_user=paid']) {
        expect((await t.call(master.token, { method: 'GET', url: `/api/users?${bad}` })).statusCode, bad).toBe(400);
      }
    });

    it('order_by sorts by every offered column, both ways; any other column is a 400', async () => {
      // distinct, non-null values everywhere so both engines must agree with a plain comparison
      const order = ['xalpha', 'gamma1', 'alpha01', 'gammatrial', 'betaone', 'alphabet'];
      const now = nowSec();
      for (const [i, u] of order.entries()) {
        await setLine(L[u].id, {
          created_at: now - 1000 * ((i * 5) % 6),
          exp_date: (u === 'betaone' || u === 'xalpha' ? now - DAY * (i + 1) : now + DAY * (10 - i)),
        });
      }
      const columns = ['id', 'username', 'created_at', 'exp_date', 'master_username'] as const;
      const all = (await listUsers(master.token, '')).data;
      expect(all).toHaveLength(6);
      // default: newest id first
      expect(ids(all)).toEqual([...ids(all)].sort((a, b) => b - a));
      for (const column of columns) {
        const values = all.map((r) => r[column]);
        expect(new Set(values).size, column).toBeGreaterThan(1);
        const expected = [...all]
          .sort((a, b) => {
            const x = a[column] as string | number;
            const y = b[column] as string | number;
            return x < y ? -1 : x > y ? 1 : a.id - b.id;
          })
          .map((r) => r.id);
        const asc = (await listUsers(master.token, `order_by=${column},asc`)).data;
        const desc = (await listUsers(master.token, `order_by=${column},desc`)).data;
        expect(ids(asc), `${column} asc`).toEqual(expected);
        expect(ids(desc), `${column} desc`).toEqual([...expected].reverse());
      }
      // paging follows the order
      const page2 = (await t.call(master.token, { method: 'GET', url: '/api/users?order_by=username,asc&per=10&page=1' })).json();
      expect(page2.data.map((r: Line) => r.username)).toEqual([...order].sort());
      // columns of the row the list does not sort by (no index holds them at scale)
      const dropped = ['password', 'reseller_notes', 'whatsapp', 'max_connections', 'enabled', 'is_trial', 'system'];
      for (const bad of ['bogus', 'id,sideways', 'password;drop', 'bouquet', 'id,', ...dropped.map((c) => `${c},asc`)]) {
        const res = await t.call(master.token, { method: 'GET', url: `/api/users?order_by=${encodeURIComponent(bad)}` });
        expect(res.statusCode, bad).toBe(400);
        expect(res.json(), bad).toMatchObject({ field: 'order_by', message: 'order_by: must be one of id, username, created_at, exp_date, master_username with asc or desc' });
      }
    });

    it('GET /api/users/expiring lists only non-trial, enabled, unexpired lines by expiry, asc or desc', async () => {
      const now = nowSec();
      const extra: Line = await create(master.token, { package_id: pk.cheap, username: 'deltaexp' });
      await setLine(extra.id, { exp_date: now + 3 * DAY });
      await setLine(L.alpha01.id, { exp_date: now + 20 * DAY, enabled: 1 });
      await setLine(L.gamma1.id, { exp_date: now + 5 * DAY, enabled: 1 });
      await setLine(L.alphabet.id, { exp_date: now + DAY, enabled: 0 }); // blocked
      await setLine(L.gammatrial.id, { exp_date: now + 2 * DAY }); // trial
      await setLine(L.betaone.id, { exp_date: now - 60, enabled: 1 }); // expired
      const get = async (q: string) => {
        const res = await t.call(master.token, { method: 'GET', url: `/api/users/expiring${q}` });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as LinePage;
      };
      const asc = await get('');
      expect(asc.data.map((r) => r.username)).toEqual(['deltaexp', 'gamma1', 'alpha01']);
      expect(asc.meta.total).toBe(3);
      expect((await get('?order=asc')).data.map((r) => r.username)).toEqual(['deltaexp', 'gamma1', 'alpha01']);
      expect((await get('?order=desc')).data.map((r) => r.username)).toEqual(['alpha01', 'gamma1', 'deltaexp']);
      expect((await get('?order=asc&per=10&page=2')).data).toEqual([]);
      expect((await t.call(master.token, { method: 'GET', url: '/api/users/expiring?order=sideways' })).statusCode).toBe(400);
    });
  });

  describe('links', () => {
    it("shortens a line's Xtream link on the owner's domain; the short URL redirects and counts hits", async () => {
      const r = await reseller('rshort', 5);
      const dom = await t.call(admin, { method: 'PUT', url: `/api/resellers/${r.id}/add_domain`, payload: { dns_reseller: 'tv.shortreseller.com' } });
      expect(dom.statusCode, dom.body).toBe(201);
      const line: Line = await create(r.token, { package_id: pk.cheap, username: 'shortline', password: 'sh0rtpw' });
      const expected = 'http://tv.shortreseller.com/get.php?username=shortline&password=sh0rtpw&type=m3u_plus&output=m3u8';
      const res = await t.call(r.token, { method: 'POST', url: '/api/shorturl', payload: { user_id: line.id, type: 'm3u8' } });
      expect(res.statusCode, res.body).toBe(200);
      const short = new URL(res.json().url);
      expect(short.pathname).toMatch(/^\/s\/[A-Za-z0-9_-]+$/);
      const code = short.pathname.slice(3);
      const hits = async () => (await db().selectFrom('short_links').select('hits').where('code', '=', code).executeTakeFirstOrThrow()).hits;
      expect(await hits()).toBe(0);
      const go = await t.app.inject({ method: 'GET', url: short.pathname });
      expect(go.statusCode).toBe(302);
      expect(go.headers.location).toBe(expected);
      expect(await hits()).toBe(1);
      await t.app.inject({ method: 'GET', url: short.pathname });
      expect(await hits()).toBe(2);
      expect((await t.app.inject({ method: 'GET', url: '/s/doesnotexist' })).statusCode).toBe(404);
      expect(await balance(r.id)).toBe(4); // shortening is free
    });

    it('uses the main_domain setting when the owner has no domain', async () => {
      const r = await reseller('rnodomain', 5);
      const line: Line = await create(r.token, { package_id: pk.cheap, username: 'maindom', password: 'm41npw' });
      await setSetting('main_domain', 'https://main.example.net');
      try {
        const res = await t.call(r.token, { method: 'POST', url: '/api/shorturl', payload: { user_id: line.id, type: 'mpgets' } });
        expect(res.statusCode, res.body).toBe(200);
        const go = await t.app.inject({ method: 'GET', url: new URL(res.json().url).pathname });
        expect(go.statusCode).toBe(302);
        expect(go.headers.location).toBe('https://main.example.net/get.php?username=maindom&password=m41npw&type=m3u_plus&output=mpegts');
      } finally {
        await setSetting('main_domain', '');
      }
    });

    it('GET /api/users/{id}/links returns the four links', async () => {
      const r = await reseller('rlinks', 5);
      await t.call(admin, { method: 'PUT', url: `/api/resellers/${r.id}/add_domain`, payload: { dns_reseller: 'https://play.linksdemo.org' } });
      const line: Line = await create(r.token, { package_id: pk.cheap, username: 'linkline', password: 'l1nkpw' });
      const res = await t.call(r.token, { method: 'GET', url: `/api/users/${line.id}/links` });
      expect(res.statusCode, res.body).toBe(200);
      const links = res.json();
      expect(Object.keys(links).sort()).toEqual(['hls', 'm3u8', 'mpgets', 'ssiptv']);
      const base = 'https://play.linksdemo.org/get.php?username=linkline&password=l1nkpw&type=m3u_plus&output=';
      expect(links.mpgets).toBe(`${base}mpegts`);
      expect(links.m3u8).toBe(`${base}m3u8`);
      expect(links.hls).toBe(`${base}hls`);
      expect(links.ssiptv.startsWith('https://play.linksdemo.org/')).toBe(true);
      expect(links.ssiptv).toContain('linkline');
      expect(links.ssiptv).toContain('l1nkpw');
      // the ssiptv short link redirects to exactly that link
      const short = await t.call(r.token, { method: 'POST', url: '/api/shorturl', payload: { user_id: line.id, type: 'ssiptv' } });
      expect(short.statusCode).toBe(200);
      const go = await t.app.inject({ method: 'GET', url: new URL(short.json().url).pathname });
      expect(go.headers.location).toBe(links.ssiptv);
    });
  });

  describe('idempotency', () => {
    it('a retry of POST /api/users with the same Idempotency-Key and body returns the same line and charges once', async () => {
      const r = await reseller('ridem', 10);
      const headers = { 'idempotency-key': 'create-line-1' };
      const body = { package_id: pk.std, reseller_notes: 'retry me' };
      const first: Line = await create(r.token, body, 201, { headers });
      const second: Line = await create(r.token, body, 201, { headers });
      expect(second.id).toBe(first.id);
      expect(second.username).toBe(first.username);
      expect(second.password).toBe(first.password);
      expect(await balance(r.id)).toBe(8);
      expect(await db().selectFrom('lines').select('id').where('member_id', '=', r.id).execute()).toHaveLength(1);
      expect((await ledgerRows(r.id)).filter((l) => l.reason === 'line_create')).toHaveLength(1);

      const other = await create(r.token, { ...body, reseller_notes: 'something else' }, 422, { headers });
      expect(other.code).toBe('IDEMPOTENCY_CONFLICT');
      expect(await balance(r.id)).toBe(8);

      // a new key is a new line
      const third: Line = await create(r.token, body, 201, { headers: { 'idempotency-key': 'create-line-2' } });
      expect(third.id).not.toBe(first.id);
      expect(await balance(r.id)).toBe(6);
      expect(await ledgerSum(r.id)).toBe(6);
    });
  });
});
