import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';
import type { TestContext } from './helpers.ts';

/** An official one-month, one-credit, one-screen package; tests override what they need. */
export const PACKAGE_DEFAULTS = {
  is_trial: 0,
  is_official: 1,
  max_connections: 1,
  official_credits: 1,
  official_duration: 1,
  official_duration_in: 'months',
  trial_credits: 0,
  trial_duration: 24,
  trial_duration_in: 'hours',
};

/** Group id per type, from /api/datacomplements (the first group of each type). */
export async function groupIds(t: TestContext, token: string): Promise<Record<string, number>> {
  const groups: Record<string, number> = {};
  for (const g of (await t.call(token, { method: 'GET', url: '/api/datacomplements' })).json().groups) groups[g.type] ??= g.group_id;
  return groups;
}

export async function createBouquet(t: TestContext, token: string, bouquet_name: string): Promise<number> {
  const res = await t.call(token, { method: 'POST', url: '/api/admin/bouquets', payload: { bouquet_name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

export async function createPackage(
  t: TestContext,
  token: string,
  package_name: string,
  bouquetId: number,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const res = await t.call(token, {
    method: 'POST',
    url: '/api/admin/packages',
    payload: { ...PACKAGE_DEFAULTS, package_name, bouquets: [String(bouquetId)], ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

/** The start many test files share: the admin signed in, its group ids, and one package (PACKAGE_DEFAULTS) in a bouquet of its own. */
export async function adminWithPackage(t: TestContext, package_name = 'One credit'): Promise<{ admin: string; groups: Record<string, number>; pkg: number }> {
  const admin = await t.login('admin');
  const groups = await groupIds(t, admin);
  return { admin, groups, pkg: await createPackage(t, admin, package_name, await createBouquet(t, admin, 'All')) };
}

/** Calendar months in UTC, as the server adds them: the day of month is kept, clamped to the target month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonthsUtc(sec: number, n: number): number {
  const d = new Date(sec * 1000);
  const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + n;
  const y = Math.floor(total / 12);
  const m = total - y * 12;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000;
}

/** A reseller's stored balance. */
export const balanceOf = async (db: Kysely<DB>, id: number) => (await db.selectFrom('resellers').select('credits').where('id', '=', id).executeTakeFirstOrThrow()).credits;

/** The sum of a reseller's ledger rows: always its balance. */
export async function ledgerSumOf(db: Kysely<DB>, id: number): Promise<number> {
  const row = await db.selectFrom('credit_ledger').select((eb) => eb.fn.sum<number>('delta').as('s')).where('reseller_id', '=', id).executeTakeFirst();
  return Number(row?.s ?? 0);
}

/**
 * The shared factories: every test makes resellers, credits and lines through the API with these
 * (each call expects its success status), so a change to what creating one takes is made here once.
 */
export interface NewReseller {
  username: string;
  password: string;
  type: 'master' | 'reseller';
  credits?: number;
  /** `groupIds` of the file's admin */
  groups: Record<string, number>;
}

/** POST /api/resellers as `by`; 201 expected. The body is the created reseller. */
export async function createReseller(t: TestContext, by: string, r: NewReseller): Promise<{ id: number; username: string; body: any }> {
  const res = await t.call(by, { method: 'POST', url: '/api/resellers', payload: { username: r.username, password: r.password, member_group_id: r.groups[r.type], credits: r.credits ?? 0 } });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as number, username: r.username, body: res.json() };
}

/** createReseller, then signed in as it. */
export async function createSignedInReseller(t: TestContext, by: string, r: NewReseller): Promise<{ id: number; username: string; token: string; body: any }> {
  const made = await createReseller(t, by, r);
  return { ...made, token: await t.login(r.username, r.password) };
}

/** Credits `value` to reseller `id` (POST /api/resellers/:id/credits as `by`, an admin or its master); 200 expected. */
export async function mint(t: TestContext, by: string, id: number, value: number): Promise<void> {
  const res = await t.call(by, { method: 'POST', url: `/api/resellers/${id}/credits`, payload: { value } });
  expect(res.statusCode, res.body).toBe(200);
}

/** POST /api/users (or /api/trial_users) as `by`; 201 expected. The body is the created line. */
export async function createLine(t: TestContext, by: string, payload: Record<string, unknown>, opts: { trial?: boolean } = {}): Promise<any> {
  const res = await t.call(by, { method: 'POST', url: opts.trial ? '/api/trial_users' : '/api/users', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
