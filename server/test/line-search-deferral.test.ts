import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureQueries } from '../src/db/plans.ts';
import { groupStats, withTx } from '../src/db/tx.ts';
import type { AuthUser } from '../src/modules/auth/service.ts';
import * as lines from '../src/modules/lines/service.ts';
import { insertLine, updateLine } from '../src/modules/lines/write-repo.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { createBouquet, createPackage, groupIds } from './fixtures.ts';

// The lines a SQLite group creates enter the search index together before its COMMIT
// (migration 025, modules/lines/search-repo.ts); every other writer is indexed by the trigger.
// Whatever the path, a search finds exactly the lines that exist, and the index stays whole.

const PASS = 'Search-pass-2026';

describe(`line search index kept in the spend's transaction (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;

  async function reseller(username: string, credits: number) {
    const res = await t.call(admin, { method: 'POST', url: '/api/resellers', payload: { username, password: PASS, member_group_id: groups.reseller, credits } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    const actor: AuthUser = { id, username, type: 'reseller', credits: 0, sessionId: 0, twoFactorEnabled: false };
    return { id, actor, token: await t.login(username, PASS) };
  }
  const search = async (token: string, term: string) =>
    ((await t.call(token, { method: 'GET', url: `/api/users?text_search=${term}&per=100` })).json().data as { username: string }[]).map((l) => l.username).sort();
  /** FTS5's own check of the index against the lines (it throws when they differ). */
  const indexIsWhole = () => sql`INSERT INTO lines_search (lines_search, rank) VALUES ('integrity-check', 1)`.execute(t.database.db);

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    groups = await groupIds(t, admin);
    pkg = await createPackage(t, admin, 'Search one', await createBouquet(t, admin, 'All'), {});
  });
  afterAll(async () => {
    if (!t) return;
    await t.app.close();
    await t.database.close();
    await new Promise((r) => setTimeout(r, 200));
    await t.close();
  });

  it('40 concurrent creations on 20 credits: a search finds exactly the 20 created', async () => {
    const r = await reseller('srch_res1', 20);
    const before = { ...groupStats };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.call(r.token, { method: 'POST', url: '/api/users', payload: { package_id: pkg, username: `qzx${String(i).padStart(2, '0')}`, reseller_notes: `note kwv${i}` }, headers: { 'idempotency-key': `s-${i}` } }),
      ),
    );
    const created = results.filter((x) => x.statusCode === 201).map((x) => x.json().username as string).sort();
    expect(created).toHaveLength(20);
    expect(results.filter((x) => x.statusCode === 409).length).toBe(20);
    expect(await search(r.token, 'qzx')).toEqual(created);
    expect(await search(r.token, 'kwv')).toEqual(created); // the notes are indexed too
    if (ENGINE === 'sqlite') {
      expect(groupStats.groups - before.groups, 'the creations shared commits').toBeLessThan(40);
      await indexIsWhole();
      const flag = await sql<{ deferred_from: number | null }>`SELECT deferred_from FROM line_search_deferral`.execute(t.database.db);
      expect(flag.rows[0].deferred_from, 'the deferral is never committed set').toBeNull();
    }
  });

  it.runIf(ENGINE === 'sqlite')('a creation in a group indexes its line once, just before the COMMIT', async () => {
    const r = await reseller('srch_res2', 5);
    const sent = (await captureQueries(t.database, (db) => lines.create({ ...t.deps, database: { ...t.database, db } }, r.actor, { package_id: pkg, username: 'wpqline' }, 'k-w'))).map((q) => q.sql.trim());
    const at = (re: RegExp) => sent.findIndex((s) => re.test(s));
    expect(at(/^UPDATE line_search_deferral SET deferred_from = \(/), sent.join('\n')).toBeLessThan(at(/^insert into "lines"/));
    expect(at(/^INSERT INTO lines_search/)).toBeGreaterThan(at(/^insert into "credit_ledger"/));
    expect(at(/^UPDATE line_search_deferral SET deferred_from = NULL/)).toBeGreaterThan(at(/^INSERT INTO lines_search/));
    expect(at(/^COMMIT/)).toBeGreaterThan(at(/^UPDATE line_search_deferral SET deferred_from = NULL/));
    expect(await search(r.token, 'wpq')).toEqual(['wpqline']);
    await indexIsWhole();
  });

  it.runIf(ENGINE === 'sqlite')('an operation undone after it set the flag: the next creation of the group is indexed once', async () => {
    const r = await reseller('srch_res3', 5);
    const before = { ...groupStats };
    const line = (username: string) => ({ package_id: pkg, created_at: Date.now(), exp_date: Date.now() + 86_400_000, is_trial: 0, max_connections: 1, bouquet: '[]', member_id: r.id, username, password: 'pw', enabled: 1, system: 1, reseller_notes: null, whatsapp: null });
    const results = await Promise.allSettled([
      withTx(t.database, async (trx) => {
        await insertLine(trx, line('undonejkq'), r.actor.username);
        throw new Error('undone after its line');
      }),
      withTx(t.database, (trx) => insertLine(trx, line('keptjkq'), r.actor.username)),
    ]);
    expect(results.map((x) => x.status)).toEqual(['rejected', 'fulfilled']);
    expect(groupStats.groups - before.groups, 'both in one group').toBe(1);
    expect(await search(r.token, 'jkq')).toEqual(['keptjkq']);
    await indexIsWhole();
  });

  it.runIf(ENGINE === 'sqlite')('a line changed or removed in the group that created it: the index holds what is committed', async () => {
    const r = await reseller('srch_res5', 0);
    const line = (username: string) => ({ package_id: pkg, created_at: Date.now(), exp_date: Date.now() + 86_400_000, is_trial: 0, max_connections: 1, bouquet: '[]', member_id: r.id, username, password: 'pw', enabled: 1, system: 1, reseller_notes: 'old note hjw', whatsapp: null });
    const idOf = async (trx: Parameters<Parameters<typeof withTx>[1]>[0], username: string) => (await trx.selectFrom('lines').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const before = { ...groupStats };
    // The later operations find the new lines by name, as a client guessing the next id could.
    const results = await Promise.allSettled([
      withTx(t.database, (trx) => insertLine(trx, line('editedhjw'), r.actor.username)),
      withTx(t.database, (trx) => insertLine(trx, line('removedhjw'), r.actor.username)),
      withTx(t.database, async (trx) => updateLine(trx, await idOf(trx, 'editedhjw'), { reseller_notes: 'new note kfp', whatsapp: '5511987' })),
      withTx(t.database, async (trx) => sql`DELETE FROM lines WHERE id = ${await idOf(trx, 'removedhjw')}`.execute(trx)),
    ]);
    expect(results.map((x) => x.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(groupStats.groups - before.groups, 'all four in one group').toBe(1);
    await indexIsWhole();
    expect(await search(r.token, 'kfp')).toEqual(['editedhjw']);
    expect(await search(r.token, 'hjw')).toEqual(['editedhjw']); // its username; the old note and the removed line are gone
    expect(await search(r.token, '5511987')).toEqual(['editedhjw']);
  });

  it.runIf(ENGINE === 'sqlite')('a line written by another connection is indexed by the trigger', async () => {
    const r = await reseller('srch_res4', 0);
    const file = (await sql<{ file: string }>`SELECT file FROM pragma_database_list WHERE name = 'main'`.execute(t.database.db)).rows[0].file;
    const other = new SqliteDatabase(file);
    try {
      other
        .prepare(`INSERT INTO lines (member_id, username, password, package_id, exp_date, created_at, max_connections, is_trial, enabled, bouquet, system) VALUES (?, 'rawvbn', 'pw', ?, ?, ?, 1, 0, 1, '[]', 1)`)
        .run(r.id, pkg, Date.now() + 86_400_000, Date.now());
    } finally {
      other.close();
    }
    expect(await search(r.token, 'vbn')).toEqual(['rawvbn']);
    await indexIsWhole();
  });
});
