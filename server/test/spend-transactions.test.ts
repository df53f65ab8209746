import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTx } from '../src/db/tx.ts';
import type { AuthUser } from '../src/domain/auth-user.ts';
import * as lines from '../src/modules/lines/service.ts';
import { ENGINE, type TestContext, createTestContext } from './helpers.ts';
import { adminWithPackage, balanceOf, createSignedInReseller, ledgerSumOf } from './fixtures.ts';

// One transaction per credit-moving operation: the dashboard-cache stamp goes in the operation's
// own transaction with its ledger row; withTx refuses to nest.

const PASS = 'Spend-pass-2026';

describe(`credit spends: one transaction each (${ENGINE})`, () => {
  let t: TestContext;
  let admin: string;
  let pkg: number;
  let groups: Record<string, number>;
  let master: { id: number; token: string };

  async function reseller(token: string, username: string, group: string, credits: number) {
    return createSignedInReseller(t, token, { username, password: PASS, type: group as 'master' | 'reseller', credits, groups });
  }
  const balance = (id: number) => balanceOf(t.database.db, id);
  const ledgerSum = (id: number) => ledgerSumOf(t.database.db, id);

  beforeAll(async () => {
    t = await createTestContext();
    ({ admin, groups, pkg } = await adminWithPackage(t));
    master = await reseller(admin, 'tx_master', 'master', 5000);
  });
  afterAll(() => t?.close());

  it('a line creation stamps the dashboard cache inside its own transaction', async () => {
    const r = await reseller(master.token, 'tx_res1', 'reseller', 10);
    const actor: AuthUser = { id: r.id, username: 'tx_res1', type: 'reseller', credits: 0, sessionId: 0, twoFactorEnabled: false };
    if (ENGINE === 'sqlite') {
      // A failure after the stamp undoes it with the ledger row: they are in one transaction.
      const stampOf = async () => (await t.database.db.selectFrom('dashboard_cache').select('invalidated_at').where('reseller_id', '=', master.id).executeTakeFirst())?.invalidated_at;
      const before = await stampOf();
      await sql`CREATE TRIGGER fail_after_stamp AFTER UPDATE ON dashboard_cache BEGIN SELECT RAISE(ABORT, 'after the stamp'); END`.execute(t.database.db);
      await sql`CREATE TRIGGER fail_after_stamp_insert AFTER INSERT ON dashboard_cache BEGIN SELECT RAISE(ABORT, 'after the stamp'); END`.execute(t.database.db);
      try {
        await expect(lines.create(t.deps, actor, { package_id: pkg }, 'k-fail')).rejects.toThrow(/after the stamp/);
      } finally {
        await sql`DROP TRIGGER fail_after_stamp`.execute(t.database.db);
        await sql`DROP TRIGGER fail_after_stamp_insert`.execute(t.database.db);
      }
      expect(await balance(r.id), 'the ledger row went with the stamp').toBe(10);
      expect(await ledgerSum(r.id)).toBe(10);
      expect(await stampOf()).toBe(before);
      await lines.create(t.deps, actor, { package_id: pkg }, 'k-one');
      expect(Number(await stampOf()), 'the cache was stamped').toBeGreaterThan(Number(before ?? 0));
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

  it('60 concurrent creations on 30 credits: exactly 30 lines, balance equals ledger', async () => {
    const r = await reseller(master.token, 'tx_res2', 'reseller', 30);
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
  });

  it('a withTx inside another throws at once (it does not wait for the outer one, which would never end), and the outer transaction rolls back', async () => {
    const r = await reseller(master.token, 'tx_res4', 'reseller', 3);
    let innerRan = false;
    await expect(
      withTx(t.database, async (trx) => {
        await trx.updateTable('resellers').set({ credits: 99 }).where('id', '=', r.id).execute();
        await withTx(t.database, async () => {
          innerRan = true;
        });
      }),
    ).rejects.toThrow(/inside a transaction/);
    expect(innerRan, 'the inner callback never ran').toBe(false);
    expect(await balance(r.id)).toBe(3);
    // and the next transaction runs
    await withTx(t.database, (trx) => trx.selectFrom('resellers').select('id').execute());
  });

  it.runIf(ENGINE === 'sqlite')('a SQLite transaction takes the write lock at BEGIN (BEGIN IMMEDIATE), before any write', async () => {
    const other = new SqliteDatabase(t.deps.config.databaseUrl.slice('sqlite:'.length));
    other.pragma('busy_timeout = 0');
    try {
      let refused = '';
      await withTx(t.database, async (trx) => {
        await trx.selectFrom('resellers').select('id').execute(); // a read only
        try {
          other.exec('BEGIN IMMEDIATE');
          other.exec('ROLLBACK');
        } catch (err) {
          refused = (err as Error).message;
        }
      });
      expect(refused).toMatch(/locked|busy/i);
    } finally {
      other.close();
    }
  });
});
