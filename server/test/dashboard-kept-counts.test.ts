import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as creationHours from '../src/db/migrations/033_line_creation_hours.ts';
import { withTx } from '../src/db/tx.ts';
import type { AuthUser } from '../src/domain/auth-user.ts';
import { nowSec } from '../src/lib/clock.ts';
import { foldBatch, foldLineCounts, pruneLineCounts } from '../src/modules/dashboard/line-counts-folder.ts';
import { keptLineFigures } from '../src/modules/dashboard/line-counts-repo.ts';
import { lineCounts } from '../src/modules/dashboard/repo.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { createBouquet, createLine, createPackage, createSignedInReseller, groupIds } from './fixtures.ts';

const PASS = 'Str0ng-pass!';
const DAY = 86_400;
const START = nowSec();
/** the last seconds of a day three days ago, and of the day after tomorrow: lines there sit on a bucket's edge */
const EDGE_CREATED = (Math.floor(START / DAY) - 3) * DAY + DAY - 10;
const EDGE_EXP = (Math.floor(START / DAY) + 2) * DAY + DAY - 10;

describe(`the dashboard's kept line counts (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let groups: Record<string, number>;
  let pkg: number;
  let trialPkg: number;
  const tops: { id: number; token: string }[] = [];
  const reseller = (by: string, username: string, type: 'master' | 'reseller', credits = 20) => createSignedInReseller(t, by, { username, password: PASS, type, credits, groups });

  /** A reseller of `by` made a master (masters create resellers only). */
  async function nestedMaster(by: string, username: string) {
    const made = await reseller(by, username, 'reseller', 100);
    expect((await t.call(by, { method: 'POST', url: `/api/resellers/${made.id}/to_master` })).statusCode).toBe(200);
    return { ...made, token: await t.login(username, PASS) };
  }

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    groups = await groupIds(t, admin);
    const bouquet = await createBouquet(t, admin, 'Kept');
    pkg = await createPackage(t, admin, 'Kept', bouquet);
    trialPkg = await createPackage(t, admin, 'Kept trial', bouquet, { is_trial: 1, is_official: 0 });
    for (const name of ['kc_top1', 'kc_top2']) tops.push(await reseller(admin, name, 'master', 1_000));
  });
  afterAll(() => t.close());

  const actorOf = (id: number, type: AuthUser['type']): AuthUser => ({ id, username: `r${id}`, type, credits: 0, sessionId: 0, twoFactorEnabled: false });

  /** The kept figures equal a scan of the lines, for every scope, at instants around today's and the week's day edges. */
  async function expectKeptExact(label: string, { past = true } = {}) {
    const db = t.database.db;
    const now = nowSec();
    // (the last three: the edge lines' day is the week's first day; today, their hour; today, hours before)
    const instants = [now, Math.floor(now / DAY) * DAY + DAY - 1, now + 3 * DAY + 4_000, EDGE_CREATED + 7 * DAY - 100, EDGE_EXP - 100, EDGE_EXP - 5 * 3_600];
    if (past) instants.push(Math.floor(now / DAY) * DAY, now - 2 * DAY);
    const scopes: [number, AuthUser][] = [[0, actorOf(1, 'admin')], ...tops.map((top): [number, AuthUser] => [top.id, actorOf(top.id, 'master')])];
    for (const at of instants) {
      for (const [scope, actor] of scopes) {
        const kept = await keptLineFigures(db, scope, at, at - 7 * DAY);
        const s = await lineCounts(db, actor, at, at - 7 * DAY);
        const scanned = { total: Number(s?.users ?? 0), created: Number(s?.users_new ?? 0), active: [s?.normal_http, s?.normal_p2p, s?.trial_http, s?.trial_p2p].map((v) => Number(v ?? 0)) };
        expect(kept, `${label}: scope ${scope} at ${at}`).toEqual(scanned);
      }
    }
  }

  it('equal a scan through creations, renewals, blocks, deletions, raw writes and a deactivation that moves a subtree, before and after folding', async () => {
    const [top1, top2] = tops;
    const sub = await nestedMaster(top1.token, 'kc_sub');
    const leaf = await reseller(sub.token, 'kc_leaf', 'reseller');
    const made: number[] = [];
    for (const by of [top1.token, sub.token, leaf.token, top2.token]) made.push((await createLine(t, by, { package_id: pkg })).id);
    made.push((await createLine(t, leaf.token, { package_id: trialPkg }, { trial: true })).id);
    await expectKeptExact('created');

    // Lines written straight to the table: P2P and trial kinds, expiries today, yesterday and next
    // month, created on the week's edge day, one disabled, one deleted.
    const now = nowSec();
    const raw = [
      { exp_date: now + 60, created_at: now - 7 * DAY + 30, system: 2, is_trial: 0, enabled: 1 },
      { exp_date: now - 60, created_at: now - 7 * DAY - 30, system: 1, is_trial: 1, enabled: 1 },
      { exp_date: now + 30 * DAY, created_at: now - DAY, system: 3, is_trial: 1, enabled: 1 },
      { exp_date: now + 2 * DAY, created_at: now, system: 1, is_trial: 0, enabled: 0 },
      { exp_date: Math.floor(now / DAY) * DAY + DAY - 1, created_at: now - 8 * DAY, system: 1, is_trial: 0, enabled: 1 },
      { exp_date: EDGE_EXP, created_at: EDGE_CREATED, system: 1, is_trial: 0, enabled: 1 },
      { exp_date: EDGE_EXP, created_at: EDGE_CREATED, system: 2, is_trial: 1, enabled: 1 },
    ];
    const owners = [top1.id, sub.id, leaf.id, top2.id, 1, top1.id, leaf.id];
    await t.database.db
      .insertInto('lines')
      .values(raw.map((r, i) => ({ ...r, member_id: owners[i], username: `kc_raw${i}`, password: 'p4ss-raw', bouquet: '[]', max_connections: 1 })))
      .execute();
    await t.database.db.updateTable('lines').set({ deleted_at: now }).where('username', '=', 'kc_raw4').execute();
    await expectKeptExact('raw writes');

    expect((await t.call(sub.token, { method: 'POST', url: `/api/users/${made[1]}/renew`, headers: { 'idempotency-key': 'kc-renew-1' }, payload: { package_id: pkg } })).statusCode).toBe(200);
    expect((await t.call(top1.token, { method: 'POST', url: `/api/users/${made[2]}/block` })).statusCode).toBe(200);
    expect((await t.call(top2.token, { method: 'DELETE', url: `/api/users/${made[3]}` })).statusCode).toBe(204);
    await expectKeptExact('renewed, blocked, deleted');

    // A bulk change of many rows in one statement (PostgreSQL: one grouped insert).
    await t.database.db.updateTable('lines').set({ exp_date: sql`exp_date + ${DAY}` }).where('member_id', 'in', [sub.id, leaf.id]).execute();
    await expectKeptExact('bulk update');

    await foldLineCounts(t.deps);
    const left = await t.database.db.selectFrom('line_count_changes').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    await expectKeptExact('folded');

    // The nested master is deactivated into the other top master: its subtree changes top.
    const moved = await t.call(admin, { method: 'DELETE', url: `/api/resellers/${sub.id}`, payload: { reseller_id: sub.id, type: 'transferall', target_id: top2.id } });
    expect(moved.statusCode, moved.body).toBeLessThan(300);
    await expectKeptExact('subtree moved');
    await foldLineCounts(t.deps);
    await expectKeptExact('moved and folded');
    // migration 033 on a database that has lines: its fill of the creation hours is exact too
    await t.database.db.deleteFrom('line_counts').where('kind', '=', 9).execute();
    const ctx = { dialect: ENGINE, id: ENGINE === 'postgres' ? 'serial' : 'integer', bigId: ENGINE === 'postgres' ? 'bigserial' : 'integer' } as const;
    // (as the migrator runs it: PostgreSQL inside a transaction, SQLite taking its own)
    await (ENGINE === 'postgres' ? withTx(t.database, (trx) => creationHours.up(trx as never, ctx)) : creationHours.up(t.database.db as never, ctx));
    await expectKeptExact('033 filled');
    // the by-hour counts of past hours go; what is read from now on stays exact
    await pruneLineCounts(t.deps);
    await expectKeptExact('pruned', { past: false });
  });

  it('a spend only adds change rows: the kept counts every spend would share are not written', async () => {
    const db = t.database.db;
    await foldLineCounts(t.deps);
    const snapshot = () => db.selectFrom('line_counts').selectAll().orderBy(['scope_id', 'kind', 'period']).execute();
    const before = await snapshot();
    await createLine(t, tops[0].token, { package_id: pkg });
    expect(await snapshot()).toEqual(before);
    const changes = await db.selectFrom('line_count_changes').select(['scope_id', 'kind', 'n']).orderBy('id').execute();
    expect(changes.map((c) => c.scope_id).sort((a, b) => a - b)).toEqual([0, 0, 0, 0, tops[0].id, tops[0].id, tops[0].id, tops[0].id]);
    expect(changes.every((c) => c.n === 1)).toBe(true);
  });

  it('the admin and a top-level master see a new line on the dashboard at once; a nested master gets its scan', async () => {
    const dash = async (token: string) => (await t.call(token, { method: 'GET', url: '/api/dashboard' })).json();
    const nested = await nestedMaster(tops[1].token, 'kc_nested');
    const before = { admin: await dash(admin), top: await dash(tops[1].token), nested: await dash(nested.token) };
    await createLine(t, nested.token, { package_id: pkg });
    const after = { admin: await dash(admin), top: await dash(tops[1].token), nested: await dash(nested.token) };
    for (const who of ['admin', 'top', 'nested'] as const) {
      expect(after[who].users_active, who).toBe(before[who].users_active + 1);
      expect(after[who].users_activehttp, who).toBe(before[who].users_activehttp + 1);
      expect(after[who].users_new, who).toBe(before[who].users_new + 1);
      expect(after[who].users, who).toBe(before[who].users + 1);
    }
  });

  it('folds from two places at once lose and double nothing', async () => {
    const now = nowSec();
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      member_id: tops[i % 2].id,
      username: `kc_bulk${i}`,
      password: 'p4ss-bulk',
      exp_date: now + (i % 40) * DAY,
      created_at: now - (i % 10) * DAY,
      enabled: 1,
      is_trial: i % 3 === 0 ? 1 : 0,
      max_connections: 1,
      bouquet: '[]',
      system: 1 + (i % 3),
    }));
    for (let i = 0; i < rows.length; i += 500) await t.database.db.insertInto('lines').values(rows.slice(i, i + 500)).execute();
    await Promise.all([foldBatch(t.deps), foldBatch(t.deps), foldLineCounts(t.deps)]);
    await foldLineCounts(t.deps);
    await expectKeptExact('two folders');
  });
});
