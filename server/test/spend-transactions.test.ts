import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureQueries } from '../src/db/plans.ts';
import { groupStats, onceBeforeCommit, withTx } from '../src/db/tx.ts';
import type { AuthUser } from '../src/modules/auth/service.ts';
import * as lines from '../src/modules/lines/service.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { balanceOf, createBouquet, createPackage, groupIds, ledgerSumOf } from './fixtures.ts';

// One commit per credit-moving operation: the dashboard-cache stamp goes in the operation's own
// transaction (it used to commit on its own afterwards: a second fsync per line creation). On
// SQLite, operations that arrive together share one commit (group commit in withTx), each in its
// own savepoint, and no caller hears back before that commit.

const PASS = 'Spend-pass-2026';

describe(`credit spends: one transaction each, grouped commits (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;
  let master: { id: number; token: string };

  async function reseller(token: string, username: string, group: string, credits: number) {
    const res = await t.call(token, { method: 'POST', url: '/api/resellers', payload: { username, password: PASS, member_group_id: groups[group], credits } });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().id as number, token: await t.login(username, PASS) };
  }
  const balance = (id: number) => balanceOf(t.database.db, id);
  const ledgerSum = (id: number) => ledgerSumOf(t.database.db, id);

  beforeAll(async () => {
    t = await createTestContext();
    admin = await t.login('admin');
    groups = await groupIds(t, admin);
    pkg = await createPackage(t, admin, 'One credit', await createBouquet(t, admin, 'All'), {});
    master = await reseller(admin, 'tx_master', 'master', 5000);
  });
  afterAll(async () => {
    if (!t) return;
    await t.app.close();
    await t.database.close();
    await new Promise((r) => setTimeout(r, 200));
    await t.close();
  });

  it('a line creation stamps the dashboard cache inside its own transaction', async () => {
    const r = await reseller(master.token, 'tx_res1', 'reseller', 10);
    const actor: AuthUser = { id: r.id, username: 'tx_res1', type: 'reseller', credits: 0, sessionId: 0, twoFactorEnabled: false };
    if (ENGINE === 'sqlite') {
      const sent = (await captureQueries(t.database, (db) => lines.create({ ...t.deps, database: { ...t.database, db } }, actor, { package_id: pkg }, 'k-one'))).map((q) => q.sql.trim());
      const at = (re: RegExp) => sent.findIndex((s) => re.test(s));
      expect(sent.filter((s) => /^COMMIT/.test(s)), sent.join('\n')).toHaveLength(1);
      expect(sent.filter((s) => /^BEGIN/.test(s))).toHaveLength(1);
      const stamp = at(/^INSERT INTO dashboard_cache/);
      expect(stamp, 'the cache stamp is sent').toBeGreaterThan(at(/^BEGIN/));
      expect(stamp, 'the cache stamp commits with the ledger row').toBeLessThan(at(/^COMMIT/));
      expect(at(/^insert into "credit_ledger"/)).toBeLessThan(at(/^COMMIT/));
    } else {
      // Triggers record the transaction id of every ledger row and cache stamp written.
      const db = t.database.db;
      await sql`CREATE TABLE tx_probe (tbl text, xid bigint)`.execute(db);
      await sql`CREATE FUNCTION tx_probe() RETURNS trigger AS $$ BEGIN INSERT INTO tx_probe VALUES (TG_TABLE_NAME, txid_current()); RETURN NULL; END $$ LANGUAGE plpgsql`.execute(db);
      await sql`CREATE TRIGGER tx_probe_cache AFTER INSERT OR UPDATE ON dashboard_cache FOR EACH ROW EXECUTE FUNCTION tx_probe()`.execute(db);
      await sql`CREATE TRIGGER tx_probe_ledger AFTER INSERT ON credit_ledger FOR EACH ROW EXECUTE FUNCTION tx_probe()`.execute(db);
      try {
        await lines.create(t.deps, actor, { package_id: pkg }, 'k-one');
        const rows = (await sql<{ tbl: string; xid: string }>`SELECT tbl, xid FROM tx_probe`.execute(db)).rows;
        expect(rows.some((x) => x.tbl === 'dashboard_cache'), 'the cache was stamped').toBe(true);
        expect(rows.some((x) => x.tbl === 'credit_ledger')).toBe(true);
        expect(new Set(rows.map((x) => x.xid)).size, JSON.stringify(rows)).toBe(1);
      } finally {
        await sql`DROP TABLE tx_probe; DROP FUNCTION tx_probe() CASCADE`.execute(db);
      }
    }
    expect(await balance(r.id)).toBe(9);
  });

  it.runIf(ENGINE === 'sqlite')('one owner\'s creations in one group stamp the dashboard cache once, before the COMMIT', async () => {
    const r = await reseller(master.token, 'tx_res3', 'reseller', 10);
    const actor: AuthUser = { id: r.id, username: 'tx_res3', type: 'reseller', credits: 0, sessionId: 0, twoFactorEnabled: false };
    const before = (await t.database.db.selectFrom('dashboard_cache').select('invalidated_at').where('reseller_id', '=', master.id).executeTakeFirst())?.invalidated_at ?? 0;
    const sent = (
      await captureQueries(t.database, (db) =>
        Promise.all([1, 2, 3].map((i) => lines.create({ ...t.deps, database: { ...t.database, db } }, actor, { package_id: pkg }, `k-group-${i}`))),
      )
    ).map((q) => q.sql.trim());
    expect(sent.filter((s) => /^COMMIT/.test(s)), sent.join('\n')).toHaveLength(1);
    expect(sent.filter((s) => /^insert into "credit_ledger"/.test(s))).toHaveLength(3);
    const stamps = sent.map((s, i) => (/^INSERT INTO dashboard_cache/.test(s) ? i : -1)).filter((i) => i >= 0);
    expect(stamps, 'one stamp for the three').toHaveLength(1);
    const lastLedger = sent.map((s, i) => (/^insert into "credit_ledger"/.test(s) ? i : -1)).reduce((a, b) => Math.max(a, b));
    expect(stamps[0], 'after the last operation').toBeGreaterThan(lastLedger);
    expect(stamps[0]).toBeLessThan(sent.findIndex((s) => /^COMMIT/.test(s)));
    const after = await t.database.db.selectFrom('dashboard_cache').select('invalidated_at').where('reseller_id', '=', master.id).executeTakeFirstOrThrow();
    expect(Number(after.invalidated_at), 'the owner\'s master was stamped').toBeGreaterThan(Number(before));
    expect(await balance(r.id)).toBe(7);
  });

  it.runIf(ENGINE === 'sqlite')('work left for the COMMIT that fails fails the whole group', async () => {
    const db = t.database.db;
    await sql`CREATE TABLE bc_probe (note TEXT)`.execute(db);
    try {
      const results = await Promise.allSettled([
        withTx(t.database, (trx) => sql`INSERT INTO bc_probe VALUES ('x')`.execute(trx)),
        withTx(t.database, async (trx) => {
          await onceBeforeCommit(trx, 'boom', async () => {
            throw new Error('before-commit work failed');
          });
        }),
      ]);
      expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
      expect(((await sql<{ n: number }>`SELECT count(*) AS n FROM bc_probe`.execute(db)).rows[0].n)).toBe(0);
      let ran = 0;
      await withTx(t.database, (trx) => onceBeforeCommit(trx, 'once', async () => void ran++)); // a group of one still runs it
      expect(ran).toBe(1);
    } finally {
      await sql`DROP TABLE bc_probe`.execute(db);
    }
  });

  it('60 concurrent creations on 30 credits: exactly 30 lines, balance equals ledger, commits shared (SQLite)', async () => {
    const r = await reseller(master.token, 'tx_res2', 'reseller', 30);
    const before = { ...groupStats };
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => t.call(r.token, { method: 'POST', url: '/api/users', payload: { package_id: pkg, username: `txline${i}` }, headers: { 'idempotency-key': `c-${i}` } })),
    );
    const ok = results.filter((x) => x.statusCode === 201).length;
    const refused = results.filter((x) => x.statusCode === 409 && x.json().code === 'INSUFFICIENT_CREDITS').length;
    expect(results.filter((x) => x.statusCode >= 500).map((x) => x.body)).toEqual([]);
    expect([ok, refused]).toEqual([30, 30]);
    expect(await balance(r.id)).toBe(0);
    expect(await ledgerSum(r.id)).toBe(0);
    const made = await t.database.db.selectFrom('lines').select((eb) => eb.fn.countAll<number>().as('n')).where('member_id', '=', r.id).executeTakeFirstOrThrow();
    expect(Number(made.n)).toBe(30);
    if (ENGINE === 'sqlite') {
      const groupsUsed = groupStats.groups - before.groups;
      const operations = groupStats.operations - before.operations;
      console.log(`[sqlite] 60 creations (30 refused): ${operations} operations in ${groupsUsed} commits`);
      expect(operations).toBeGreaterThanOrEqual(60); // each creation is one operation (sign-ins etc. may add)
      expect(groupsUsed, 'operations that arrive together share a commit').toBeLessThan(operations / 2);
    }
  });

  it.runIf(ENGINE === 'sqlite')('a group: a failing operation rolls back alone; callers settle after COMMIT; a failed COMMIT fails the whole group', async () => {
    const db = t.database.db;
    await sql`CREATE TABLE gc_probe (id INTEGER PRIMARY KEY, note TEXT, parent INTEGER REFERENCES resellers(id))`.execute(db);
    const file = t.deps.config.databaseUrl.slice('sqlite:'.length);
    const other = new SqliteDatabase(file, { readonly: true }); // another connection: sees committed rows only
    const committed = (note: string) => other.prepare('SELECT count(*) AS n FROM gc_probe WHERE note = ?').get(note) as { n: number };
    try {
      const insert = (note: string, parent: number | null = null) => (trx: typeof db) => sql`INSERT INTO gc_probe (note, parent) VALUES (${note}, ${parent})`.execute(trx);
      const seenAtSettle: number[] = [];
      const before = groupStats.groups;
      const results = await Promise.allSettled([
        withTx(t.database, insert('a')).then(() => seenAtSettle.push(committed('a').n)),
        withTx(t.database, async (trx) => {
          await insert('b')(trx);
          throw new Error('b fails');
        }),
        withTx(t.database, insert('c')).then(() => seenAtSettle.push(committed('c').n)),
      ]);
      expect(groupStats.groups - before, 'one commit for the three').toBe(1);
      expect(results.map((x) => x.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(((results[1] as PromiseRejectedResult).reason as Error).message).toBe('b fails');
      expect(seenAtSettle, 'each caller settled after its row was committed').toEqual([1, 1]);
      expect(committed('b').n).toBe(0);

      // A deferred foreign key fails the COMMIT itself: every caller of the group gets the error, nothing is kept.
      const failed = await Promise.allSettled([
        withTx(t.database, insert('d')),
        withTx(t.database, async (trx) => {
          await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
          await insert('e', 999_999)(trx);
        }),
        withTx(t.database, insert('f')),
      ]);
      expect(failed.map((x) => x.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(String((failed[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
      expect([committed('d').n, committed('e').n, committed('f').n]).toEqual([0, 0, 0]);
      // and the connection is usable afterwards
      await withTx(t.database, insert('g'));
      expect(committed('g').n).toBe(1);
    } finally {
      other.close();
      await sql`DROP TABLE gc_probe`.execute(db);
    }
  });
});
