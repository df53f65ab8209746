import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSec } from '../src/lib/clock.ts';
import { addMonthsUtc, balanceOf, createBouquet, createPackage, createSignedInReseller, groupIds, ledgerSumOf, createLine as postLine, mint as mintCredits } from './fixtures.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import type { Line } from '../../web/src/api/types.ts';

const PASS = 'Str0ng-pass!';
const DAY = 86_400;

describe(`lines: concurrent spends against one balance (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let cheap: number;
  let trialPkg: number;
  const groups: Record<string, number> = {};

  const db = () => t.database.db;

  const reseller = (username: string, credits: number) => createSignedInReseller(t, admin, { username, password: PASS, type: 'reseller', credits, groups });
  const mint = (id: number, value: number) => mintCredits(t, admin, id, value);
  const createLine = async (token: string, username: string): Promise<Line> => postLine(t, token, { package_id: cheap, username });
  const balance = (id: number) => balanceOf(db(), id);
  const ledgerSum = (id: number) => ledgerSumOf(db(), id);
  const setSetting = (key: string, value: string) => db().updateTable('settings').set({ value }).where('key', '=', key).execute();

  /** Fires every request at once; returns the responses and the wall time. */
  async function fire(token: string, requests: InjectOptions[]) {
    const started = Date.now();
    const results = await Promise.all(requests.map((r) => t.call(token, r)));
    return { results, ms: Date.now() - started };
  }
  function tally(label: string, results: Awaited<ReturnType<TestContext['call']>>[], ms: number, okStatus: number, refusedCode: string) {
    const ok = results.filter((r) => r.statusCode === okStatus).length;
    const refused = results.filter((r) => r.statusCode === 409 && r.json().code === refusedCode).length;
    const serverErrors = results.filter((r) => r.statusCode >= 500);
    console.log(`[${ENGINE}] ${label}: fired ${results.length}, succeeded ${ok}, refused ${refused}, ${ms} ms`);
    expect(serverErrors.map((r) => r.body), 'no 5xx').toEqual([]);
    return { ok, refused };
  }

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    Object.assign(groups, await groupIds(t, admin));
    const bouquet = await createBouquet(t, admin, 'All');
    const pkg = (package_name: string, extra: Record<string, unknown>) => createPackage(t, admin, package_name, bouquet, extra);
    cheap = await pkg('One credit', {});
    trialPkg = await pkg('Trial', { is_trial: 1, is_official: 0 });
  });
  afterAll(() => t?.close());

  it('100 concurrent line creations at 1 credit with 30 credits: exactly 30 lines', async () => {
    const r = await reseller('conc_create', 30);
    const fired = 100;
    const { results, ms } = await fire(
      r.token,
      Array.from({ length: fired }, () => ({ method: 'POST' as const, url: '/api/users', payload: { package_id: cheap } })),
    );
    const { ok, refused } = tally('line creations', results, ms, 201, 'INSUFFICIENT_CREDITS');
    expect(ok).toBe(30);
    expect(refused).toBe(fired - 30);
    expect(await balance(r.id)).toBe(0);
    expect(await ledgerSum(r.id)).toBe(0);
    const lines = await db().selectFrom('lines').select('id').where('member_id', '=', r.id).execute();
    expect(lines).toHaveLength(30);
    const charges = await db().selectFrom('credit_ledger').select(['line_id', 'delta']).where('reseller_id', '=', r.id).where('reason', '=', 'line_create').execute();
    expect(charges.every((c) => c.delta === -1)).toBe(true);
    expect(charges.map((c) => c.line_id).sort()).toEqual(lines.map((l) => l.id).sort());
    const created = results.filter((x) => x.statusCode === 201).map((x) => x.json().id);
    expect(new Set(created).size).toBe(30);
  });

  it('100 concurrent flash renews on 4 lines with 40 credits: exactly 40 months added, none lost', async () => {
    const r = await reseller('conc_renew', 4);
    const lines = await Promise.all([0, 1, 2, 3].map((i) => createLine(r.token, `conc_renew_${i}`)));
    expect(await balance(r.id)).toBe(0);
    await mint(r.id, 40);
    const fired = 100;
    const { results, ms } = await fire(
      r.token,
      Array.from({ length: fired }, (_, i) => ({ method: 'POST' as const, url: `/api/users/${lines[i % 4].id}/renew`, payload: { months: 1 } })),
    );
    const { ok, refused } = tally('flash renews', results, ms, 200, 'INSUFFICIENT_CREDITS');
    expect(ok).toBe(40);
    expect(refused).toBe(fired - 40);
    expect(await balance(r.id)).toBe(0);
    expect(await ledgerSum(r.id)).toBe(0);
    // every paid month is on the line it was paid for (none lost to a concurrent renewal)
    const perLine = [];
    for (const [i, line] of lines.entries()) {
      const paid = results.filter((x, k) => k % 4 === i && x.statusCode === 200).length;
      const charged = await db().selectFrom('credit_ledger').select('id').where('line_id', '=', line.id).where('reason', '!=', 'line_create').execute();
      const stored = await db().selectFrom('lines').select('exp_date').where('id', '=', line.id).executeTakeFirstOrThrow();
      // each renewal adds one month to the expiry left by the one before, so past a month's end the
      // day can be clamped once (Jan 31 -> Feb 28 -> Mar 28): count month by month, never in one jump
      const renewedMonths = (months: number) => Array.from({ length: months }).reduce<number>((exp) => addMonthsUtc(exp, 1), line.exp_date);
      let added = 0;
      while (renewedMonths(added + 1) <= stored.exp_date) added++;
      perLine.push({ paid, charged: charged.length, monthsAdded: added, exactExpiry: stored.exp_date === renewedMonths(paid) });
    }
    expect(perLine).toEqual(perLine.map((l) => ({ paid: l.paid, charged: l.paid, monthsAdded: l.paid, exactExpiry: true })));
  });

  it('concurrent trials respect trial_limit_per_day', async () => {
    await setSetting('trial_limit_per_day', '3');
    try {
      const r = await reseller('conc_trial', 0);
      const fired = 30;
      const { results, ms } = await fire(
        r.token,
        Array.from({ length: fired }, () => ({ method: 'POST' as const, url: '/api/trial_users', payload: { package_id: trialPkg } })),
      );
      const { ok, refused } = tally('trials (limit 3)', results, ms, 201, 'TRIAL_LIMIT_REACHED');
      const stored = await db().selectFrom('lines').select('id').where('member_id', '=', r.id).execute();
      expect(stored).toHaveLength(3);
      expect(ok).toBe(3);
      expect(refused).toBe(fired - 3);
    } finally {
      await setSetting('trial_limit_per_day', '5');
    }
  });

  it('concurrent extensions of one line: once per 30 days', async () => {
    const r = await reseller('conc_extend', 1);
    const line = await createLine(r.token, 'conc_extend_line');
    const fired = 20;
    const { results, ms } = await fire(
      r.token,
      Array.from({ length: fired }, () => ({ method: 'POST' as const, url: `/api/users/${line.id}/extenddays`, payload: { days: 3 } })),
    );
    const { ok, refused } = tally('extensions of one line', results, ms, 200, 'EXTEND_LIMIT_REACHED');
    const stored = await db().selectFrom('lines').select('exp_date').where('id', '=', line.id).executeTakeFirstOrThrow();
    expect(stored.exp_date - line.exp_date, 'days added').toBe(3 * DAY);
    expect(ok).toBe(1);
    expect(refused).toBe(fired - 1);
  });

  it('concurrent screen additions on one line stop at user_limit_screen and charge only what was added', async () => {
    await setSetting('user_limit_screen', '3');
    try {
      const r = await reseller('conc_screens', 1);
      const line = await createLine(r.token, 'conc_screens_line'); // 1 screen
      // 20 days left: one month remaining, so each added screen costs 1
      await db().updateTable('lines').set({ exp_date: nowSec() + 20 * DAY }).where('id', '=', line.id).execute();
      await mint(r.id, 50);
      const fired = 20;
      const { results, ms } = await fire(
        r.token,
        Array.from({ length: fired }, () => ({ method: 'POST' as const, url: `/api/users/${line.id}/screens`, payload: { amount: 1 } })),
      );
      const ok = results.filter((x) => x.statusCode === 200).length;
      console.log(`[${ENGINE}] screen additions on one line (1 -> limit 3): fired ${fired}, succeeded ${ok}, refused ${fired - ok}, ${ms} ms`);
      expect(results.filter((x) => x.statusCode >= 500).map((x) => x.body)).toEqual([]);
      const stored = await db().selectFrom('lines').select('max_connections').where('id', '=', line.id).executeTakeFirstOrThrow();
      const spent = 50 - (await balance(r.id));
      expect({ ok, screens: stored.max_connections, spent }).toEqual({ ok: 2, screens: 3, spent: 2 });
      expect(await ledgerSum(r.id)).toBe(await balance(r.id));
    } finally {
      await setSetting('user_limit_screen', '1');
    }
  });

  it('concurrent retries of one creation with one Idempotency-Key make one line and charge once', async () => {
    const r = await reseller('conc_idem', 10);
    const fired = 20;
    const { results, ms } = await fire(
      r.token,
      Array.from({ length: fired }, () => ({
        method: 'POST' as const,
        url: '/api/users',
        payload: { package_id: cheap },
        headers: { 'idempotency-key': 'conc-create-1' },
      })),
    );
    const ok = results.filter((x) => x.statusCode === 201);
    console.log(`[${ENGINE}] idempotent creation retries: fired ${fired}, succeeded ${ok.length}, ${ms} ms`);
    expect(results.map((x) => x.statusCode)).toEqual(Array(fired).fill(201));
    expect(new Set(ok.map((x) => x.json().id)).size).toBe(1);
    expect(await balance(r.id)).toBe(9);
    expect(await db().selectFrom('lines').select('id').where('member_id', '=', r.id).execute()).toHaveLength(1);
  });
});
